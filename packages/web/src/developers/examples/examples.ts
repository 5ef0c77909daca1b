import { heading, paragraph, shell, typescript, type DocPage, type HeadingBlock } from "../docs/content";

/**
 * /developers/examples: complete, runnable examples with curl and with the SDK. One page, run
 * top to bottom by infra/docs/guide-examples.test.ts: the setup opens two funded accounts that
 * every example after it uses.
 */

/** The sections, for the page's table of contents; each is a heading with this id in the blocks. */
export const exampleSections = [
  { id: "setup", title: "Setup: two accounts" },
  { id: "idempotent-retry", title: "Transfers with idempotent retry" },
  { id: "paging-history", title: "Paging through history" },
  { id: "csv-export", title: "CSV export" },
  { id: "streaming-resume", title: "Streaming with resume" },
  { id: "error-handling", title: "Error handling" },
] as const;
type SectionId = (typeof exampleSections)[number]["id"];

const section = (id: SectionId): HeadingBlock => heading(exampleSections.find((entry) => entry.id === id)!.title, id);

export const examples: DocPage = {
  id: "examples",
  title: "Examples",
  icon: "🧪",
  description:
    "Complete examples with curl and the TypeScript SDK: idempotent retries, paging, CSV export, streaming with resume and error handling.",
  requires: ["BASE_URL", "API_KEY"],
  content: [
    section("setup"),
    paragraph(
      "The examples below use two USD accounts, the first funded with a posted deposit of 500.00. Open them once:",
    ),
    shell(
      `
api() {
  curl -sS --fail-with-body -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" "$@"
}
FROM_ACCOUNT=$(api -X POST "$BASE_URL/api/v1/ledger/accounts" -d '{"name": "Examples: main", "currency": "USD"}' | jq -r '.data.id')
TO_ACCOUNT=$(api -X POST "$BASE_URL/api/v1/ledger/accounts" -d '{"name": "Examples: reserve", "currency": "USD"}' | jq -r '.data.id')
export FROM_ACCOUNT TO_ACCOUNT

DEPOSIT=$(api -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -d "$(jq -n --arg account "$FROM_ACCOUNT" '{account_id: $account, amount: "500.00", description: "Funding"}')" | jq -r '.data.id')
api -X POST "$BASE_URL/api/v1/ledger/transactions/$DEPOSIT/post" | jq -r '"funded: \\(.data.amount) \\(.data.status)"'`,
      { expectOutput: /funded: 500\.00 posted/ },
    ),

    section("idempotent-retry"),
    paragraph(
      "Choose the `Idempotency-Key` before the first attempt and keep it for every retry of that transfer. Whichever attempt reached the server first wins; the others get its reply (`Idempotent-Replayed: true`), so the money moves once however often you retry. Retry network failures, `409` (the first attempt is still in flight), `429` and `5xx`; never change the body under the same key.",
    ),
    shell(
      `
KEY="invoice-7731-payout"   # one key per transfer, kept across retries
BODY=$(jq -n --arg from "$FROM_ACCOUNT" --arg to "$TO_ACCOUNT" \\
  '{from_account_id: $from, to_account_id: $to, amount: "30.00", currency: "USD", description: "Invoice 7731"}')

send_transfer() {
  : > transfer.headers
  curl -sS -X POST "$BASE_URL/api/v1/ledger/transactions/transfer" \\
    -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
    -H "Idempotency-Key: $KEY" -d "$BODY" \\
    -o transfer.json -D transfer.headers -w '%{http_code}'
}

# Up to 4 attempts; a lost connection shows as status 000. Wait as long as Retry-After says, else 1, 4, 9 s.
for attempt in 1 2 3 4; do
  status=$(send_transfer) || status=000
  case "$status" in
    201) break ;;
    000|409|429|5*)
      retry_after=$(sed -n 's/^retry-after: *\\([0-9]*\\).*/\\1/Ip' transfer.headers)
      sleep "\${retry_after:-$((attempt * attempt))}" ;;
    *) jq -r '"refused: \\(.code): \\(.message)"' transfer.json; break ;;
  esac
done
echo "first:  $(jq -r '.data.id' transfer.json)"

# Suppose that reply never reached us: the same call again changes nothing.
send_transfer > /dev/null
echo "replay: $(jq -r '.data.id' transfer.json) ($(grep -i '^idempotent-replayed' transfer.headers | tr -d '\\r'))"`,
      { expectOutput: /first: {2}([0-9a-f-]{36})\nreplay: \1 \(idempotent-replayed: true\)/i },
    ),
    paragraph(
      "The SDK does the same by itself: every write gets an `Idempotency-Key` (yours or a generated one) that it keeps across its own retries.",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const body = {
  from_account_id: process.env.FROM_ACCOUNT!,
  to_account_id: process.env.TO_ACCOUNT!,
  amount: "12.00",
  currency: "USD",
  description: "Invoice 7732",
} as const;
const headers = { "Idempotency-Key": "invoice-7732-payout" };

const first = await fintech.api.POST("/api/v1/ledger/transactions/transfer", { body, headers });
const again = await fintech.api.POST("/api/v1/ledger/transactions/transfer", { body, headers });
console.log("first: ", first.data.data.id);
console.log("replay:", again.data.data.id, "replayed:", again.response.headers.get("Idempotent-Replayed"));`,
      { expectOutput: /first: {2}([0-9a-f-]{36})\nreplay: \1 replayed: true/ },
    ),

    section("paging-history"),
    paragraph(
      "Follow `pagination.next_cursor` until `has_more` is false. A cursor is bound to the filters it came with; send the same filters with it. Offsets (`offset`) work for the first 5,000 rows; cursors work at any depth.",
    ),
    shell(
      `
CURSOR=""
PAGES=0
: > all-transactions.txt
while :; do
  args=(--data-urlencode "limit=2")
  [ -n "$CURSOR" ] && args+=(--data-urlencode "cursor=$CURSOR")
  curl -sS --fail-with-body -G "$BASE_URL/api/v1/ledger/transactions/history" "\${args[@]}" \\
    -H "Authorization: Bearer $API_KEY" > page.json
  jq -r '.data[] | "\\(.created_at) \\(.type) \\(.amount)"' page.json >> all-transactions.txt
  PAGES=$((PAGES + 1))
  [ "$(jq -r '.pagination.has_more' page.json)" = "true" ] || break
  CURSOR=$(jq -r '.pagination.next_cursor' page.json)
done
echo "$(wc -l < all-transactions.txt) transactions in $PAGES pages"`,
      { expectOutput: /^3 transactions in 2 pages$/m },
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

let cursor: string | undefined;
let pages = 0;
const transactions: string[] = [];
do {
  const { data: page } = await fintech.api.GET("/api/v1/ledger/transactions/history", {
    params: { query: { limit: 2, type: "transfer", ...(cursor ? { cursor } : {}) } },
  });
  pages += 1;
  for (const transaction of page.data) transactions.push(\`\${transaction.description} \${transaction.amount}\`);
  cursor = page.pagination.has_more ? (page.pagination.next_cursor ?? undefined) : undefined;
} while (cursor);
console.log(\`\${transactions.length} transfers in \${pages} page(s): \${transactions.join(", ")}\`);`,
      { expectOutput: /2 transfers in 1 page\(s\): Invoice 7732 12\.00, Invoice 7731 30\.00/ },
    ),

    section("csv-export"),
    paragraph(
      "`GET /api/v1/ledger/transactions/export` takes the history's filters and answers `text/csv` with every match (at most 10,000 rows; narrow the filters past that). Cells that a spreadsheet would run as a formula are prefixed with `'`.",
    ),
    shell(
      `
curl -sS --fail-with-body -G "$BASE_URL/api/v1/ledger/transactions/export" \\
  --data-urlencode "type=transfer" \\
  -H "Authorization: Bearer $API_KEY" \\
  -D export.headers -o transfers.csv
grep -i '^content-disposition' export.headers | tr -d '\\r'
echo "$(($(wc -l < transfers.csv) - 1)) rows"
cut -d, -f4,6,8,11 transfers.csv`,
      {
        expectOutput:
          /filename="transactions-\d{4}-\d{2}-\d{2}\.csv"\n2 rows\ntype,description,amount,idempotency_key\ntransfer,Invoice 7732,12\.00,invoice-7732-payout\ntransfer,Invoice 7731,30\.00,invoice-7731-payout/,
      },
    ),
    typescript(
      `
import { writeFile } from "node:fs/promises";
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

const { data: csv } = await fintech.api.GET("/api/v1/ledger/transactions/export", {
  params: { query: { status: "draft" } },
  parseAs: "text",
});
await writeFile("drafts.csv", csv);
const rows = csv.trim().split("\\n").slice(1);
console.log(\`\${rows.length} draft transactions saved to drafts.csv\`);`,
      { expectOutput: /2 draft transactions saved to drafts\.csv/ },
    ),

    section("streaming-resume"),
    paragraph(
      "A stream consumer that never loses an event keeps the id of the last message it handled (the server's `cursor` messages carry one too) and reconnects with it as `Last-Event-ID`. The server ends every stream after about 5 minutes by design, so reconnecting is the normal path, not the exception. With curl, which shows the wire format: note where the stream starts, disconnect, let money arrive, resume.",
    ),
    shell(
      `
# Connect and note the starting position: the id of the first message.
: > stream.txt
curl -sSN -G "$BASE_URL/api/grpc/ledger/stream" --data-urlencode "accountIds=$FROM_ACCOUNT" \\
  -H "Authorization: Bearer $API_KEY" > stream.txt &
pid=$!
until grep -q '^id: ' stream.txt; do sleep 0.2; done
kill $pid
LAST_EVENT_ID=$(grep -m1 '^id: ' stream.txt | cut -c5-)

# While disconnected, money arrives.
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d "$(jq -n --arg account "$FROM_ACCOUNT" '{account_id: $account, amount: "3.00", description: "Top-up 3.00"}')" > /dev/null

# Resume: the server replays what was missed.
: > stream.txt
curl -sSN -G "$BASE_URL/api/grpc/ledger/stream" --data-urlencode "accountIds=$FROM_ACCOUNT" \\
  -H "Authorization: Bearer $API_KEY" -H "Last-Event-ID: $LAST_EVENT_ID" > stream.txt &
pid=$!
until grep -q '"type":"transactionCreated"' stream.txt; do sleep 0.2; done
kill $pid
sed -n 's/^data: //p' stream.txt | jq -r 'select(.type == "transactionCreated") | "resumed: \\(.description)"'

# Remember the id of the last event handled, for next time.
LAST_EVENT_ID=$(grep -B1 '^event: transactionCreated' stream.txt | sed -n 's/^id: //p' | tail -n 1)
export LAST_EVENT_ID`,
      { expectOutput: /^resumed: Top-up 3\.00$/m },
    ),
    paragraph(
      "With the SDK, `fintech.stream` reconnects by itself within one run. Across runs (a restart, a deploy), store the id of each event once it is handled and pass it back as `lastEventId`: the next run gets exactly what it missed and nothing it already handled. Here the position saved by the curl example above:",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const account = process.env.FROM_ACCOUNT!;
let lastEventId = process.env.LAST_EVENT_ID!; // in production: read from your database

// While this consumer was down, more money arrived.
await fintech.api.POST("/api/v1/ledger/transactions/deposit", {
  body: { account_id: account, amount: "4.00", description: "Top-up 4.00" },
});

for await (const event of fintech.stream("/api/grpc/ledger/stream", { query: { accountIds: [account] }, lastEventId })) {
  if (event.event === "transactionCreated") console.log("missed while down:", (event.data as { description: string }).description);
  lastEventId = event.id ?? lastEventId; // handled: save it
  if (event.event === "transactionCreated") break;
}`,
      { expectOutput: /^missed while down: Top-up 4\.00$/m },
    ),

    section("error-handling"),
    paragraph(
      'Every refusal is a 4xx with `{"message", "code"}`; decide on the `code`, show the `message`. Quote the `X-Request-Id` header of a reply when you ask for help. With curl, keep the status and the body apart:',
    ),
    shell(
      `
call() {  # prints the HTTP status, keeps the body in reply.json
  curl -sS -o reply.json -w '%{http_code}' -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" "$@"
}

status=$(call -X POST "$BASE_URL/api/v1/ledger/transactions/transfer" \\
  -d "$(jq -n --arg from "$FROM_ACCOUNT" --arg to "$TO_ACCOUNT" '{from_account_id: $from, to_account_id: $to, amount: "12.345"}')")
echo "$status $(jq -r '.code + ": " + .message' reply.json)"

status=$(call "$BASE_URL/api/v1/ledger/accounts/no-such-account/balance")
echo "$status $(jq -r '.code + ": " + .message' reply.json)"

status=$(curl -sS -o reply.json -w '%{http_code}' -H "Authorization: Bearer fpk_revoked_or_wrong" "$BASE_URL/api/v1/ledger/accounts")
echo "$status $(jq -r '.code + ": " + .message' reply.json)"`,
      {
        expectOutput:
          /^400 \w+: .+\n404 account_not_found: Account not found\n401 invalid_api_key: Invalid or revoked API key$/m,
      },
    ),
    paragraph(
      "The SDK throws a `FintechError` for every failure, after its own retries (3 by default, for network errors, timeouts after 30000 ms, `429` and `5xx`, honouring `Retry-After`). Its `code` is one of `VALIDATION_ERROR`, `INVALID_API_KEY`, `FORBIDDEN`, `NOT_FOUND`, `CONFLICT`, `LOCKED`, `RATE_LIMITED`, `SERVER_ERROR`, `HTTP_ERROR`, `NETWORK_ERROR` or `TIMEOUT`; `apiCode` is the server's own code.",
    ),
    typescript(
      `
import { createFintechClient, FintechError } from "@fintech/sdk";

const baseUrl = process.env.BASE_URL!;
const fintech = createFintechClient({ baseUrl, apiKey: process.env.API_KEY! });

async function explain(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    console.log(label, "ok");
  } catch (error) {
    if (!(error instanceof FintechError)) throw error;
    console.log(label, error.code, error.status ?? "no reply", error.apiCode ?? "", error.message);
  }
}

await explain("too much:", () =>
  fintech.api.POST("/api/v1/ledger/transactions/transfer", {
    body: { from_account_id: process.env.FROM_ACCOUNT!, to_account_id: process.env.TO_ACCOUNT!, amount: "1000000.00" },
  }),
);
await explain("wrong key:", () => createFintechClient({ baseUrl, apiKey: "fpk_wrong" }).api.GET("/api/v1/ledger/accounts"));
// Nothing listens on port 9 here; one quick retry instead of the default 3.
await explain("no server:", () => createFintechClient({ baseUrl: "http://127.0.0.1:9", apiKey: "fpk_any", retries: 1 }).api.GET("/health"));`,
      {
        expectOutput:
          /too much: VALIDATION_ERROR 422 insufficient_funds .+\nwrong key: INVALID_API_KEY 401 invalid_api_key .+\nno server: NETWORK_ERROR no reply/,
      },
    ),
  ],
};
