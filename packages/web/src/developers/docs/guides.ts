import { heading, json, list, notRunnable, paragraph, shell, typescript, type DocPage } from "./content";

/**
 * The documentation guides (docs/product/developer-tools.md#documentation): what the API does,
 * nothing more. Every shell and TypeScript block is run against a real server by
 * infra/docs/guide-examples.test.ts, in order, with the page's `requires` exported first; the shell
 * examples use curl and jq, and those of one page share their exported variables.
 */

const gettingStarted: DocPage = {
  id: "getting-started",
  title: "Getting Started",
  icon: "🚀",
  description: "Run the platform, create a user and an API key, and make your first authenticated call.",
  requires: ["BASE_URL"],
  content: [
    heading("What the API does today"),
    paragraph(
      "The platform is a double-entry ledger behind one JSON HTTP API: users and API keys, accounts in USD, EUR, GBP or JPY, deposits, transfers between your own accounts, balances at any moment, transaction history with CSV export, a live stream of ledger events, and identity verification (KYC): the applicant's steps, document uploads with content and image checks, a live stream of verification events, and a reviewer back office for administrators. Payments go over the payment rails (ACH, Wire, Card, SWIFT, SEPA, Crypto) to your own accounts, other users and external beneficiaries, with the fee quoted up front, routing that explains its choice, and a live stream of payment events.",
    ),
    paragraph(
      "`npm start` runs everything on one port: the API and this site at http://localhost:3000. On a deployed stage the API answers at the site's own address. Every example reads that address from `BASE_URL`; the shell examples use `curl` and `jq`.",
    ),
    heading("Check that the API is up"),
    shell(`curl -sS "$BASE_URL/health" | jq '{status, message}'`, { expectOutput: /"status": "ok"/ }),
    paragraph(
      "`ok` means the database and the object store both answer; `degraded` means only storage fails. A `503` with a `Retry-After` header means the database is unreachable for now: try again after that many seconds.",
    ),
    heading("Create your user"),
    shell(
      `
TOKEN=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/auth/register" \\
  -H "Content-Type: application/json" \\
  -d '{"email": "ada@example.com", "password": "correct horse battery staple", "first_name": "Ada", "last_name": "Lovelace"}' \\
  | jq -r '.data.token')
export TOKEN
echo "Signed up; session token \${TOKEN:0:16}..."`,
      { expectOutput: /Signed up; session token eyJ/ },
    ),
    json(`{
  "message": "Registration successful",
  "data": {
    "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...",
    "expires_at": "2026-11-24T19:25:56.000Z",
    "user": { "id": "0446a522-...", "email": "ada@example.com", "first_name": "Ada", "last_name": "Lovelace", "role": "user" }
  }
}`),
    paragraph(
      "The token is a session: it lasts 24 hours (`expires_at`). Passwords need at least 8 characters. Sign in again with `POST /api/v1/auth/login`; see [Authentication](/developers/docs#authentication).",
    ),
    heading("Create an API key"),
    paragraph(
      "Scripts and servers use an API key rather than your password. A key starts with `fpk_` and is shown once, in this reply: the platform keeps only a hash of it. You can also create and revoke keys on the [API keys](/developers/api-keys) screen.",
    ),
    shell(
      `
API_KEY=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/api-keys" \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "getting started"}' \\
  | jq -r '.data.key')
export API_KEY
echo "API key \${API_KEY:0:12}..."`,
      { expectOutput: /API key fpk_/ },
    ),
    heading("Make your first call"),
    paragraph(
      "Send the key as a bearer token, exactly like a session token. Open an account, then list your accounts:",
    ),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/accounts" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "Operating", "currency": "USD"}' \\
  | jq '.data | {id, account_number, currency, balance}'

curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/accounts" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data[] | "\\(.name): \\(.balance) \\(.currency)"'`,
      { expectOutput: /Operating: 0\.00 USD/ },
    ),
    heading("Verify your identity (KYC)"),
    paragraph(
      "KYC is five steps: pick a country (`GET /api/v1/kyc/countries?search=`), start (`POST /api/v1/kyc/start`), upload an identity document (`POST /api/v1/kyc/upload`, a JPG or PNG of at most 5 MB, checked by content, sharpness and glare), verify an Aadhaar and a PAN number, and wait for a reviewer. Only a masked number and a keyed hash are kept, never the number itself. Here are the first steps from the shell:",
    ),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/kyc/countries?search=india" \
  -H "Authorization: Bearer $API_KEY" | jq -c '.countries[] | {countryCode, documentTypes}'

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/kyc/start" \
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \
  -d '{"country": "IN", "name": "Ada Lovelace", "email": "ada@example.com", "phone": "+919876543210"}' \
  | jq -r '.data.status'

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/kyc/verify/aadhaar" \
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \
  -d '{"document_number": "2341 2341 2346", "country": "IN"}' | jq -c '.data | {valid, status, masked}'

curl -sS --fail-with-body "$BASE_URL/api/v1/kyc/status" \
  -H "Authorization: Bearer $API_KEY" | jq -c '.data | {status, progress, next_steps}'`,
      {
        expectOutput:
          /"countryCode":"IN"[\s\S]*pending[\s\S]*\{"valid":true,"status":"verified","masked":"XXXX XXXX 2346"\}[\s\S]*"progress":25/,
      },
    ),
    paragraph(
      'A malformed number is a `400` with "Please enter a valid 12-digit Aadhaar number." and changes nothing. Progress rises by 25 for each verified number and by 100/n for each accepted document type of the country. The [API explorer](/developers/api-explorer) lists every KYC call, the reviewer\'s included.',
    ),
    heading("Conventions"),
    list(
      "Bodies are JSON: send `Content-Type: application/json`.",
      'Amounts are decimal strings in the account\'s currency (`"12.50"`; JPY has no decimals). Replies carry the integer minor units beside them (`balance_minor`). `1e3`, `0x10` and more decimals than the currency has are refused, never rounded.',
      'Errors are a 4xx status with `{"message": ..., "code": ...}`, and a refused request changes nothing. `401` means a missing, wrong or expired credential (`unauthorized`, `invalid_token`, `invalid_api_key`).',
      "Writes accept an `Idempotency-Key` header: the same request with the same key returns the first reply (with `Idempotent-Replayed: true`) and writes nothing again.",
      "Lists are paged: `limit` (1 to 200, default 50) and `offset`, or the previous page's `pagination.next_cursor` as `cursor`.",
      "`429` and `503` carry `Retry-After`: wait that many seconds, then retry.",
    ),
    heading("Use the TypeScript SDK"),
    paragraph(
      "`@fintech/sdk` is a typed client generated from the API's OpenAPI document (`GET /api/openapi.json`); in this repository it is the workspace package `packages/sdk`. It sends your key as a bearer token, gives each attempt 30000 ms, retries network errors, 5xx and 429 replies 3 times with backoff, and throws a `FintechError` whose `code` says what happened (`INVALID_API_KEY`, `NETWORK_ERROR`, ...).",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

const { data: accounts } = await fintech.api.GET("/api/v1/ledger/accounts");
for (const account of accounts.data) console.log(\`\${account.name}: \${account.balance} \${account.currency}\`);`,
      { expectOutput: /Operating: 0\.00 USD/ },
    ),
  ],
};

const authentication: DocPage = {
  id: "authentication",
  title: "Authentication",
  icon: "🔐",
  description: "Sessions, bearer API keys (fpk_), revoking keys, stream tickets and what a 401 or 429 means.",
  requires: ["BASE_URL", "EMAIL", "PASSWORD"],
  content: [
    heading("Sessions"),
    paragraph(
      "Sign in with your email and password. The reply's `data.token` is a session token: send it as `Authorization: Bearer <token>`. It lasts 24 hours (`expires_at`); then sign in again.",
    ),
    shell(
      `
TOKEN=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/auth/login" \\
  -H "Content-Type: application/json" \\
  -d "$(jq -n --arg email "$EMAIL" --arg password "$PASSWORD" '{email: $email, password: $password}')" \\
  | jq -r '.data.token')
export TOKEN

curl -sS --fail-with-body "$BASE_URL/api/v1/users/profile" \\
  -H "Authorization: Bearer $TOKEN" \\
  | jq '.data | {email, first_name, role}'`,
      { expectOutput: /"role": "user"/ },
    ),
    paragraph(
      'A wrong email and a wrong password get the same answer, `401 {"message": "Invalid email or password", "code": "invalid_credentials"}`. Sign-in and sign-up attempts are limited per address (30 a minute) and per email and address (10 a minute); past that the reply is `429` with `Retry-After`.',
    ),
    heading("API keys"),
    paragraph(
      "An API key (`fpk_...`) acts as you, on your own accounts and transactions, with the role `user` even if you are an admin: it never reaches an admin action. It is shown once, when created; the platform stores only a hash, plus a visible prefix and when it was last used. You may hold 20 active keys. Keys are managed with a session only (an API key gets `403 session_required` there), here or on the [API keys](/developers/api-keys) screen.",
    ),
    shell(
      `
API_KEY=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/api-keys" \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "billing worker"}' \\
  | jq -r '.data.key')
export API_KEY

curl -sS --fail-with-body "$BASE_URL/api/v1/api-keys" \\
  -H "Authorization: Bearer $TOKEN" \\
  | jq '.data[] | {name, prefix, created_at, last_used_at, revoked_at}'`,
      { expectOutput: /"name": "billing worker",\s+"prefix": "fpk_/ },
    ),
    paragraph("Use the key wherever a session token goes:"),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/users/profile" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '"Signed in as \\(.data.email)"'`,
      { expectOutput: /Signed in as \S+@/ },
    ),
    heading("Revoke a key"),
    paragraph(
      "Revoking is immediate: the next request with the key is `401 invalid_api_key`. The record stays in the list, with `revoked_at`, for audit.",
    ),
    shell(
      `
KEY_ID=$(curl -sS --fail-with-body "$BASE_URL/api/v1/api-keys" \\
  -H "Authorization: Bearer $TOKEN" \\
  | jq -r 'first(.data[] | select(.name == "billing worker" and .revoked_at == null)) | .id')

curl -sS --fail-with-body -X DELETE "$BASE_URL/api/v1/api-keys/$KEY_ID" \\
  -H "Authorization: Bearer $TOKEN" \\
  | jq -r '"revoked at \\(.data.revoked_at)"'

curl -sS "$BASE_URL/api/v1/users/profile" -H "Authorization: Bearer $API_KEY" -w '\\nHTTP %{http_code}\\n'`,
      { expectOutput: /"code":"invalid_api_key"}\s+HTTP 401/ },
    ),
    heading("Stream tickets"),
    paragraph(
      "Scripts and servers open the live streams with the same bearer header. A browser's `EventSource` cannot send headers, and a token must never sit in a URL, so the browser trades its token for a stream ticket: it lives 60 seconds and only opens streams (`?ticket=`). See [Real-time APIs](/developers/docs#realtime).",
    ),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/auth/stream-ticket" \\
  -H "Authorization: Bearer $TOKEN" \\
  | jq '{expires_at, expires_in}'`,
      { expectOutput: /"expires_in": 60/ },
    ),
    heading("When authentication fails"),
    list(
      "`401 unauthorized`: no `Authorization` header. `401 invalid_token`: a session token that is malformed or expired. `401 invalid_api_key`: an unknown or revoked key. Every 401 carries `WWW-Authenticate: Bearer`.",
      "`403`: signed in, but not allowed (an admin route, another user's stream, or key management with an API key).",
      "`429`: too many sign-in attempts; wait `Retry-After` seconds.",
      "A `503` is an outage, not a bad credential: keep your session and retry later.",
    ),
    heading("With the SDK"),
    paragraph(
      "The SDK takes either credential: `token` for a session, `apiKey` for a key. A 401 throws `FintechError` with the code `INVALID_API_KEY`; it is never retried.",
    ),
    typescript(
      `
import { createFintechClient, FintechError } from "@fintech/sdk";

const baseUrl = process.env.BASE_URL!;

// Sign in, then create a key with the session.
const anonymous = createFintechClient({ baseUrl });
const { data: session } = await anonymous.api.POST("/api/v1/auth/login", {
  body: { email: process.env.EMAIL!, password: process.env.PASSWORD! },
});
const signedIn = createFintechClient({ baseUrl, token: session.data.token });
const { data: created } = await signedIn.api.POST("/api/v1/api-keys", { body: { name: "sdk example" } });

const fintech = createFintechClient({ baseUrl, apiKey: created.data.key });
const { data: profile } = await fintech.api.GET("/api/v1/users/profile");
console.log("Signed in as", profile.data.email);

// Revoke it: the key stops working at once.
await signedIn.api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id: created.data.id } } });
try {
  await fintech.api.GET("/api/v1/users/profile");
} catch (error) {
  if (!(error instanceof FintechError)) throw error;
  console.log(error.code, error.status, error.apiCode);
}`,
      { expectOutput: /INVALID_API_KEY 401 invalid_api_key/ },
    ),
  ],
};

const ledger: DocPage = {
  id: "ledger",
  title: "Ledger API",
  icon: "📒",
  description:
    "Accounts, deposits, transfers with Idempotency-Key, posting, balances at any moment, history, CSV export and errors.",
  requires: ["BASE_URL", "API_KEY"],
  content: [
    heading("Accounts"),
    paragraph(
      "Every account has a name, a currency (USD, EUR, GBP or JPY) and a type: `bank` (the default), `cash`, `asset`, `liability`, `equity`, `revenue` or `expense`. Its number is generated (`ACC` and 10 digits) unless you give one, and is unique among your accounts.",
    ),
    shell(
      `
open_account() {
  curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/accounts" \\
    -H "Authorization: Bearer $API_KEY" \\
    -H "Content-Type: application/json" \\
    -d "$(jq -n --arg name "$1" '{name: $name, type: "bank", currency: "USD"}')" \\
    | jq -r '.data.id'
}
FROM_ACCOUNT=$(open_account "Operating")
TO_ACCOUNT=$(open_account "Payroll")
export FROM_ACCOUNT TO_ACCOUNT

curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/accounts" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data[] | "\\(.name) \\(.account_number) \\(.balance) \\(.currency)"'`,
      { expectOutput: /Operating ACC\d{10} 0\.00 USD/ },
    ),
    heading("Deposits and posting"),
    paragraph(
      "A deposit records money arriving from outside: it moves from the platform's External funding account into yours. Every write starts as a draft: it shows in `pending_in` (or `pending_out`) but not yet in `balance`. Posting it makes it final; unposting (`POST .../unpost`) returns a posted journal to draft. Nothing is erased: each step is added to the journal's `history`, with who did it.",
    ),
    shell(
      `
DEPOSIT=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: opening-deposit-0001" \\
  -d "$(jq -n --arg account "$FROM_ACCOUNT" '{account_id: $account, amount: "1000.00", currency: "USD", description: "Opening deposit"}')" \\
  | jq -r '.data.id')
export DEPOSIT

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/$DEPOSIT/post" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq '.data | {id, type, status, amount, posted_at}'`,
      { expectOutput: /"status": "posted"/ },
    ),
    heading("Transfers and Idempotency-Key"),
    paragraph(
      "A transfer moves money between two of your accounts in one currency. It may not take an account's available balance (balance less pending outflows) below zero: that is `422 insufficient_funds`.",
    ),
    paragraph(
      "Send an `Idempotency-Key` of your choosing (1 to 255 visible ASCII characters, such as your payout's id) with every write. If the reply is lost, send the same request with the same key: you get the first reply again, with `Idempotent-Replayed: true`, and nothing is written twice. The same key with a different body is `422 idempotency_key_reused`; a repeat that arrives while the first is still in flight is `409 idempotency_in_progress`. Keys never expire.",
    ),
    paragraph(
      "Decisions stay decided: a keyed request refused for a business reason (`insufficient_funds`, `account_locked`, an inactive account, the same account twice, a currency mismatch; for post and unpost also `already_posted` and `not_posted`) keeps that answer. Retrying with the same key returns the same refusal, byte for byte and with `Idempotent-Replayed: true`, even after the money arrived; send a new key to try again. Malformed input (other `400`s) is not kept, so fixing the body and retrying with the same key works.",
    ),
    shell(
      `
transfer() {
  curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/transfer" \\
    -H "Authorization: Bearer $API_KEY" \\
    -H "Content-Type: application/json" \\
    -H "Idempotency-Key: payroll-2026-11" \\
    -D headers.txt \\
    -d "$(jq -n --arg from "$FROM_ACCOUNT" --arg to "$TO_ACCOUNT" \\
      '{from_account_id: $from, to_account_id: $to, amount: "250.00", currency: "USD", description: "November payroll"}')"
}
TRANSFER=$(transfer | jq -r '.data.id')
export TRANSFER
echo "transfer $TRANSFER"

# The reply was lost? Send the very same request again:
echo "again    $(transfer | jq -r '.data.id') ($(grep -i '^idempotent-replayed' headers.txt | tr -d '\\r'))"`,
      { expectOutput: /transfer ([0-9a-f-]{36})\nagain {4}\1 \(idempotent-replayed: true\)/i },
    ),
    paragraph("The transfer is a draft until you post it:"),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/$TRANSFER/post" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq '.data | {status, counterparty, entries: [.entries[] | {account_name, debit, credit}]}'`,
      { expectOutput: /"status": "posted",\s+"counterparty": "Operating → Payroll"/ },
    ),
    heading("Balances, now and at any moment"),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/accounts/$TO_ACCOUNT/balance" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq '.data | {name, balance, available, pending_in, pending_out, as_of}'`,
      { expectOutput: /"name": "Payroll",\s+"balance": "250\.00"/ },
    ),
    paragraph(
      "Every balance change is kept as a version, so `?as_of=` (an ISO 8601 time) answers with the balance at that moment. Here: the Operating account just after the deposit was posted, before the transfer.",
    ),
    shell(
      `
POSTED_AT=$(curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/transactions/$DEPOSIT" \\
  -H "Authorization: Bearer $API_KEY" | jq -r '.data.posted_at')

curl -sS --fail-with-body -G "$BASE_URL/api/v1/ledger/accounts/$FROM_ACCOUNT/balance" \\
  --data-urlencode "as_of=$POSTED_AT" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq '.data | {name, balance, as_of}'`,
      { expectOutput: /"name": "Operating",\s+"balance": "1000\.00"/ },
    ),
    heading("History and paging"),
    paragraph(
      "`GET /api/v1/ledger/transactions/history` lists your journals, newest first. Filters: `status` (draft, posted), `type` (deposit, transfer, ...), `account_id`, `from` and `to` (dates or times), `q` (words in the description). Page with `limit` and the previous page's `next_cursor`; a cursor only works with the filters it came from.",
    ),
    shell(
      `
history_page() {
  curl -sS --fail-with-body -G "$BASE_URL/api/v1/ledger/transactions/history" \\
    --data-urlencode "limit=1" --data-urlencode "status=posted" "$@" \\
    -H "Authorization: Bearer $API_KEY"
}
history_page > page1.json
jq -r '.data[] | "\\(.type) \\(.status) \\(.amount) \\(.counterparty)"' page1.json

CURSOR=$(jq -r '.pagination.next_cursor' page1.json)
history_page --data-urlencode "cursor=$CURSOR" \\
  | jq -r '.data[] | "\\(.type) \\(.status) \\(.amount) \\(.counterparty)"'`,
      { expectOutput: /transfer posted 250\.00 Operating → Payroll\ndeposit posted 1000\.00 External funding \(USD\)/ },
    ),
    heading("Export as CSV"),
    paragraph(
      "The same filters, every match (up to 10,000 rows) as CSV: `id,created_at,posted_at,type,status,description,currency,amount,debit_account,credit_account,idempotency_key,counterparty,fee`.",
    ),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/transactions/export?status=posted" \\
  -H "Authorization: Bearer $API_KEY" \\
  -o transactions.csv
cut -d, -f4,5,8 transactions.csv`,
      { expectOutput: /^type,status,amount\ntransfer,posted,250\.00\ndeposit,posted,1000\.00$/m },
    ),
    heading("Batches"),
    paragraph(
      '`POST /api/v1/ledger/transactions/batch` takes `{"items": [...]}`: 1 to 50 transfers and deposits, each `{"type": "transfer" | "deposit", ...}` with the fields of that single request. They are written all or nothing, in one transaction, and the reply\'s `data` lists one transaction per item, in order. If any item is malformed or refused, nothing is written and the error names the item: `{"message", "code", "error", "index"}` (0-based). A batch can change at most 100 records: one per item plus one per account it touches, so a 50-transfer payout from one account can go to up to 49 different accounts. A larger one gets `422 batch_too_large`; split it. An `Idempotency-Key` covers the whole batch.',
    ),
    heading("Errors"),
    paragraph(
      'Every refusal is a 4xx with `{"message", "code"}` and changes nothing. For example, a transfer larger than the available balance:',
    ),
    shell(
      `
curl -sS -X POST "$BASE_URL/api/v1/ledger/transactions/transfer" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d "$(jq -n --arg from "$FROM_ACCOUNT" --arg to "$TO_ACCOUNT" '{from_account_id: $from, to_account_id: $to, amount: "1000000.00"}')" \\
  -w '\\nHTTP %{http_code}\\n'`,
      { expectOutput: /"code":"insufficient_funds"}\nHTTP 422/ },
    ),
    list(
      '`400`: the input is malformed: `validation_error` (e.g. "Amount must be a number"), `invalid_json`, or `invalid_cursor` for a cursor that is not this query\'s.',
      "`404`: no such account or transaction among yours (`account_not_found`, ...); another user's is a 404 too.",
      "`409`: `idempotency_in_progress` (the same Idempotency-Key is still being processed: retry shortly), `already_posted` or `not_posted` (posting a posted journal, unposting a draft), `account_number_taken`.",
      "`422`: `insufficient_funds`, or `idempotency_key_reused` (the key came with another body).",
      "`423`: `account_locked`: an administrator locked the account; money can still come in.",
      "`503`: the store is unavailable for a moment (`Retry-After`).",
    ),
    heading("With the SDK"),
    paragraph(
      "The SDK adds an `Idempotency-Key` to every write (yours, or a generated one) and keeps it across its own retries, so a transfer whose reply was lost is applied once.",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const from = process.env.FROM_ACCOUNT!;
const to = process.env.TO_ACCOUNT!;

const { data: transfer } = await fintech.api.POST("/api/v1/ledger/transactions/transfer", {
  body: { from_account_id: from, to_account_id: to, amount: "40.00", currency: "USD", description: "Team lunch" },
  headers: { "Idempotency-Key": "team-lunch-2026-11-23" },
});
await fintech.api.POST("/api/v1/ledger/transactions/{id}/post", { params: { path: { id: transfer.data.id } } });

const { data: balance } = await fintech.api.GET("/api/v1/ledger/accounts/{id}/balance", { params: { path: { id: to } } });
console.log(\`\${balance.data.name}: \${balance.data.balance} \${balance.data.currency}\`);`,
      { expectOutput: /Payroll: 290\.00 USD/ },
    ),
  ],
};

const payments: DocPage = {
  id: "payments",
  title: "Payment Processing",
  icon: "💳",
  description:
    "Payments over the rails: quotes, creating a payment with Idempotency-Key, following it to completed, the fee, the rail chosen and why, paying other users and external beneficiaries.",
  requires: ["BASE_URL", "API_KEY"],
  content: [
    heading("Payment rails and their costs"),
    paragraph(
      "`GET /api/v1/rails` lists the rails (ACH, Wire, Card, SWIFT, SEPA, Crypto, UPI) with their fees, FX spread, SLA, what each can carry (currencies, countries, amount limits) and status; administrators edit, start and stop them on the payment-rails console (`/payment-rails`). `POST /api/v1/rails/quote` prices an amount on every active rail with one formula: fixed fee + FX spread × amount (none without a currency conversion) + a 0.1 % network fee. Each result says whether the rail can carry this payment (`eligible`, else `ineligibleReason`): its currency (`payoutCurrency`, by default `currency`), its destination `country` (by default that currency's home country) and its amount. The cheapest ELIGIBLE rail is the Best Option (`isOptimal`); a cheaper rail that cannot carry the payment never is. A payment's fee is this same cost on the rail it goes over. Here, 1,000.00 EUR to Germany: SEPA carries it and is the cheapest; the US-only rails do not.",
    ),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/rails/quote" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d '{"amount": "1000.00", "currency": "EUR", "country": "DE"}' \\
  | jq -r '.data.results[] | "\\(.name): \\(.totalCost)\\(if .isOptimal then " (Best Option)" else "" end)\\(if .eligible then "" else " (not eligible: \\(.ineligibleReason))" end)"'`,
      { expectOutput: /ACH: 1\.05 \(not eligible: ACH carries USD only\)[\s\S]*SEPA: 1\.02 \(Best Option\)/ },
    ),
    heading("Two accounts and money to pay with"),
    paragraph(
      "A payment names who pays (`userId`: your own user id, from `GET /api/v1/users/profile`) and the account it is paid from. Here: two of your USD accounts, and a posted deposit of 1,000.00 into the first.",
    ),
    shell(
      `
USER_ID=$(curl -sS --fail-with-body "$BASE_URL/api/v1/users/profile" -H "Authorization: Bearer $API_KEY" | jq -r '.data.id')
open_account() {
  curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/accounts" \\
    -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
    -d "$(jq -n --arg name "$1" '{name: $name, type: "bank", currency: "USD"}')" \\
    | jq -r '.data.id'
}
EVERYDAY=$(open_account "Everyday")
SAVINGS=$(open_account "Savings")
export USER_ID EVERYDAY SAVINGS

DEPOSIT=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d "$(jq -n --arg account "$EVERYDAY" '{account_id: $account, amount: "1000.00", currency: "USD", description: "Salary"}')" \\
  | jq -r '.data.id')
curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/$DEPOSIT/post" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '"deposit \\(.data.amount) \\(.data.status)"'`,
      { expectOutput: /deposit 1000\.00 posted/ },
    ),
    heading("Create a payment"),
    paragraph(
      '`POST /v1/payments` takes `userId`, `fromAccountId`, `amount` (a decimal string), `currency`, an optional `description`, and exactly one payee: `toAccountId` (another of your accounts), `toEmail` (another user) or `beneficiary` (an external account). The routing picks the rail; the reply (`201`, `{"message": "Payment initiated", "payment": {...}}`) is the payment, `pending`, with its rail (`selectedRail`), `fee` and `estimatedTime`. Send an `Idempotency-Key`: a retry with the same key and body (after a timeout, say) returns the first reply and creates nothing; the same key with another body is `422 idempotency_key_reused`.',
    ),
    shell(
      `
BODY=$(jq -n --arg user "$USER_ID" --arg from "$EVERYDAY" --arg to "$SAVINGS" \\
  '{userId: $user, fromAccountId: $from, toAccountId: $to, amount: "250.00", currency: "USD", description: "Monthly savings"}')
pay() {
  curl -sS --fail-with-body -X POST "$BASE_URL/v1/payments" \\
    -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
    -H "Idempotency-Key: monthly-savings-2026-11" \\
    -d "$BODY"
}
FIRST=$(pay)
PAYMENT=$(echo "$FIRST" | jq -r '.payment.paymentId')
export PAYMENT
echo "$FIRST" | jq -r '.payment | "\\(.status) \\(.amount) \\(.currency) on \\(.selectedRail), fee \\(.fee), about \\(.estimatedTime)"'

AGAIN=$(pay | jq -r '.payment.paymentId')
if [ "$AGAIN" = "$PAYMENT" ]; then echo "retried with the same key: the same payment"; fi`,
      {
        expectOutput:
          /^pending 250\.00 USD on \S+, fee \d+\.\d{2}, about [\d.]+ s\nretried with the same key: the same payment$/m,
      },
    ),
    heading("The fee is held with the amount"),
    paragraph(
      "Creating the payment holds the amount plus the fee on the paying account in the same transaction: a draft journal (a payment hold), so the money is no longer `available` (a payment larger than the available balance is `422 insufficient_funds`). When the payment completes, the journal is posted: the amount reaches the payee and the fee goes to the platform (its Fee revenue account; the FX spread part of a non-USD fee to its FX position). When it fails, the journal is voided: the hold is released and nothing is charged, not even the fee.",
    ),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/accounts/$EVERYDAY/balance" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data | "\\(.name): available \\(.available) \\(.currency)"'`,
      { expectOutput: /^Everyday: available (7\d\d\.\d{2}|1000\.00) USD$/m },
    ),
    heading("Follow it to completed"),
    paragraph(
      "The payment then moves on by itself: `pending` → `processing` (an attempt is in flight on the rail) → `completed` or `failed`, in about the rail's average processing time. Read it with `GET /v1/payments/{id}` until it settles (a bounded loop: a few seconds at most), or listen to the payment stream (below). A retriable failure of the first attempt (`rail_timeout`, `rail_unavailable`) is retried once on the next-best rail at the same fee; a payment that fails says why in `failureReason`. If the platform itself cannot process a step five times in a row, the payment is `parked` for review instead: its hold is released (nothing is paid) and `failureReason` says so.",
    ),
    shell(
      `
for poll in $(seq 1 100); do
  STATUS=$(curl -sS --fail-with-body "$BASE_URL/v1/payments/$PAYMENT" -H "Authorization: Bearer $API_KEY" | jq -r '.data.status')
  case "$STATUS" in completed|failed) break ;; esac
  sleep 0.2
done
echo "payment $STATUS"
case "$STATUS" in completed|failed) ;; *) exit 1 ;; esac`,
      { expectOutput: /^payment (completed|failed)$/m },
    ),
    heading("The fee, the rail and the routing decision"),
    paragraph(
      "The payment keeps its fee and how it was computed (`feeBreakdown`), every attempt with its outcome, and the routing decision: the strategy (`expected_value`: the rail with the highest score; `exploration`: about 1 payment in 10, chosen from its id, goes to another active rail to keep that rail's success estimate fresh; `forced` and `preferred`: below), why this rail, the saving against the default rail, and every candidate rail with its cost, success estimate and score (the expected value: what the payment is worth on that rail given its success estimate, less its cost). A rail whose recent success rate is too low is eliminated.",
    ),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/v1/payments/$PAYMENT" -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data
    | "fee: \\(.fee) \\(.currency) = fixed \\(.feeBreakdown.fixedFee) + FX \\(.feeBreakdown.fxSpread) + network \\(.feeBreakdown.networkFee)",
      "rail: \\(.selectedRail) (\\(.routing.strategy)): \\(.routing.reason)",
      "saving against \\(.routing.defaultRail): \\(.routing.saving)",
      "attempts: \\([.attempts[] | "\\(.rail) \\(.status)"] | join(", "))",
      (.routing.candidates[] | "  \\(.rail): cost \\(.cost), success \\(.successRate), score \\(.score)\\(if .eliminated then " (eliminated)" else "" end)")'`,
      {
        expectOutput:
          /^fee: \d+\.\d{2} USD = fixed \d+\.\d{2} \+ FX 0\.00 \+ network 0\.25\nrail: \S+ \((expected_value|exploration)\): .+\nsaving against \S+: -?\d+\.\d{2}\nattempts: \S+ (succeeded|failed)/m,
      },
    ),
    heading("Choosing the rail yourself"),
    paragraph(
      '`preferredRail` names a rail (e.g. `"ACH"`) that is used if it is active and not eliminated; otherwise the routing chooses as usual. `forceRail` uses the named rail whatever its score: it must be active (else `422 rail_not_available`), and a failure on it is not retried on another rail. Either way the fee is that rail\'s cost.',
    ),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/v1/payments" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: rent-reserve-2026-11" \\
  -d "$(jq -n --arg user "$USER_ID" --arg from "$EVERYDAY" --arg to "$SAVINGS" \\
    '{userId: $user, fromAccountId: $from, toAccountId: $to, amount: "100.00", currency: "USD", forceRail: "Wire"}')" \\
  | jq -r '.payment | "\\(.selectedRail) (\\(.routing.strategy)), fee \\(.fee)"'`,
      { expectOutput: /^Wire \(forced\), fee 1\.10$/m },
    ),
    heading("Paying another user, or an external beneficiary"),
    paragraph(
      "Paying anyone but yourself needs a verified identity (KYC, on the app's `/kyc` screen): until then it is `403 kyc_required`, and what you pay counts against your verification level's daily and monthly limits (`GET /api/v1/ledger/limits` shows them; over one, `422 limit_exceeded` names it). `toEmail` pays another user of the platform: their oldest active account in the payment's currency receives it, and you never see its id or balance. An unknown address and a user without such an account get the same `422 payee_cannot_receive`, so the API does not tell who is registered; paying yourself by email is `422 self_payment_by_email` (use `toAccountId`).",
    ),
    shell(
      `
curl -sS -X POST "$BASE_URL/v1/payments" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d "$(jq -n --arg user "$USER_ID" --arg from "$EVERYDAY" \\
    '{userId: $user, fromAccountId: $from, toEmail: "nobody@example.com", amount: "20.00", currency: "USD"}')" \\
  -w '\\nHTTP %{http_code}\\n'`,
      { expectOutput: /"code":"payee_cannot_receive"[\s\S]*\nHTTP 422/ },
    ),
    paragraph(
      "`beneficiary` pays an account outside the platform: `name`, `accountNumber` (4 to 34 letters or digits), an optional `bankCode` and a two-letter `country`. The amount goes to the platform's clearing account of the currency; the payment shows only the account number's last four characters.",
    ),
    shell(
      `
curl -sS --fail-with-body -X POST "$BASE_URL/v1/payments" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: invoice-2291" \\
  -d "$(jq -n --arg user "$USER_ID" --arg from "$EVERYDAY" \\
    '{userId: $user, fromAccountId: $from, amount: "40.00", currency: "USD", description: "Invoice 2291",
      beneficiary: {name: "Acme GmbH", accountNumber: "DE89370400440532013000", bankCode: "COBADEFFXXX", country: "de"}}')" \\
  | jq -r '.payment | "\\(.payee.kind): \\(.payee.name) ****\\(.payee.accountLast4) (\\(.payee.country)), \\(.status)"'`,
      { expectOutput: /^external: Acme GmbH \*\*\*\*3000 \(DE\), pending$/m },
    ),
    heading("Listing and streaming payments"),
    paragraph(
      "`GET /v1/payments` lists your payments, newest first (`status`, `limit` 1-100, `cursor` from `pagination.next_cursor`). `GET /v1/payments/stream` (`status_filter=` one or more statuses; `user_id` defaults to you) and `GET /api/grpc/payment/stream?userId=` are server-sent event streams of your payments' events: `paymentInitiated`, `paymentStatusUpdate`, `paymentCompleted` and `paymentError`, resumable with `Last-Event-ID` like the [ledger stream](/developers/docs#realtime). Here the stream is opened first, then a payment is made, and its outcome arrives:",
    ),
    shell(
      `
: > payments.txt
curl -sSN "$BASE_URL/v1/payments/stream?status_filter=completed,failed" -H "Authorization: Bearer $API_KEY" > payments.txt &
STREAM=$!
for wait in $(seq 1 50); do grep -q '^id: ' payments.txt && break; sleep 0.1; done

NEXT=$(curl -sS --fail-with-body -X POST "$BASE_URL/v1/payments" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: coffee-fund-0001" \\
  -d "$(jq -n --arg user "$USER_ID" --arg from "$EVERYDAY" --arg to "$SAVINGS" \\
    '{userId: $user, fromAccountId: $from, toAccountId: $to, amount: "10.00", currency: "USD", description: "Coffee fund"}')" \\
  | jq -r '.payment.paymentId')
for wait in $(seq 1 100); do grep -q "\\"paymentId\\":\\"$NEXT\\"" payments.txt && break; sleep 0.2; done
kill $STREAM

grep '^data: ' payments.txt | cut -c7- | jq -r --arg id "$NEXT" 'select(.paymentId == $id) | "\\(.type): \\(.event[.type] | .railUsed // .errorMessage)"'
curl -sS --fail-with-body "$BASE_URL/v1/payments?limit=10" -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data | "\\(length) payments"'`,
      { expectOutput: /^(paymentCompleted|paymentError): .+\n4 payments$/m },
    ),
    heading("With the SDK"),
    paragraph("The same payment with the SDK: created with an `Idempotency-Key`, then read until it settles."),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

const { data: created } = await fintech.api.POST("/v1/payments", {
  body: {
    userId: process.env.USER_ID!,
    fromAccountId: process.env.EVERYDAY!,
    toAccountId: process.env.SAVINGS!,
    amount: "75.00",
    currency: "USD",
    description: "Holiday fund",
  },
  headers: { "Idempotency-Key": "holiday-fund-2026-12" },
});

let payment = created.payment;
for (let poll = 0; poll < 100 && (payment.status === "pending" || payment.status === "processing"); poll += 1) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const { data } = await fintech.api.GET("/v1/payments/{id}", { params: { path: { id: payment.paymentId } } });
  payment = data.data;
}
console.log(\`\${payment.status} on \${payment.selectedRail}: \${payment.amount} + fee \${payment.fee} \${payment.currency}\`);
console.log(payment.routing.reason);`,
      { expectOutput: /^(completed|failed) on \S+: 75\.00 \+ fee \d+\.\d{2} USD\n.+/m },
    ),
    heading("Errors"),
    list(
      '`400`: `validation_error` (e.g. "Give exactly one payee: toAccountId, toEmail or beneficiary"), `invalid_amount`, `same_account`, `invalid_json`.',
      "`403`: `not_your_user_id`: `userId` must be your own. `404`: `account_not_found` (another user's account is a 404 too), `payment_not_found`.",
      "`409`: `idempotency_in_progress`: the same key is still being processed; retry shortly.",
      "`422`: `insufficient_funds`, `idempotency_key_reused`, `payee_cannot_receive`, `self_payment_by_email`, `currency_mismatch`, `account_inactive`, `account_type_not_payable`, `rail_not_available`, `no_rail_available`.",
      "`423`: `account_locked`. `503`: the store is unavailable for a moment (`Retry-After`).",
    ),
  ],
};

const realtime: DocPage = {
  id: "realtime",
  title: "Real-time APIs",
  icon: "⚡",
  description:
    "The ledger event stream (server-sent events): events, filters, resuming with Last-Event-ID, stream tickets, commands, and webhooks with verified signatures.",
  requires: ["BASE_URL", "API_KEY"],
  content: [
    heading("The ledger stream"),
    paragraph(
      "`GET /api/grpc/ledger/stream` is a stream of server-sent events about your ledger, sent as they are committed. Each message has an `id:` (where to resume), an `event:` name and `data:`, a JSON object with the event's fields, its `type` and `at`. The events:",
    ),
    list(
      "`transactionCreated` and `transactionStatusUpdate`: a journal was created, posted or unposted.",
      "`balanceUpdate`: an account's balance or available balance changed (`changeAmount`, `changeType` CREDIT or DEBIT).",
      "`lowBalanceAlert`: an account fell below the threshold you set on it.",
      "`reconciliationResult`, `accountLocked`, `accountUnlocked`: account controls.",
      "`cursor`: no news, only a newer resume position (when you connect, and with each heartbeat).",
    ),
    paragraph(
      "A quiet stream sends a `: heartbeat` comment every 15 seconds. The server ends each stream cleanly after about 5 minutes and says when to reconnect (`retry:`, in milliseconds): reconnecting is part of normal operation.",
    ),
    heading("Resume with Last-Event-ID"),
    paragraph(
      "Keep the `id:` of every message you receive. Reconnect with it in `Last-Event-ID` (or `?lastEventId=`) and the server sends exactly what you missed, nothing twice. First, remember where the stream starts:",
    ),
    shell(
      `
: > first.txt
curl -sSN "$BASE_URL/api/grpc/ledger/stream" -H "Authorization: Bearer $API_KEY" > first.txt &
STREAM=$!
until grep -q '^id: ' first.txt; do sleep 0.2; done
kill $STREAM

LAST_EVENT_ID=$(grep -m1 '^id: ' first.txt | cut -c5-)
export LAST_EVENT_ID
echo "resume from \${LAST_EVENT_ID:0:24}..."`,
      { expectOutput: /resume from \S+/ },
    ),
    paragraph("While nobody listens, money arrives:"),
    shell(
      `
ACCOUNT=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/accounts" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d '{"name": "Live", "currency": "USD"}' | jq -r '.data.id')
export ACCOUNT

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\
  -d "$(jq -n --arg account "$ACCOUNT" '{account_id: $account, amount: "75.00", description: "Invoice 118"}')" \\
  | jq -r '"deposit \\(.data.id) \\(.data.status)"'`,
      { expectOutput: /deposit \S+ draft/ },
    ),
    paragraph("Reconnect from the saved position: the events of that deposit arrive."),
    shell(
      `
: > events.txt
curl -sSN "$BASE_URL/api/grpc/ledger/stream" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Last-Event-ID: $LAST_EVENT_ID" > events.txt &
STREAM=$!
until grep -q '"type":"transactionCreated"' events.txt; do sleep 0.2; done
kill $STREAM

sed -n 's/^data: //p' events.txt | jq -c 'select(.type) | {type, amount: (.changeAmount // .amount), description}'`,
      {
        expectOutput:
          /\{"type":"balanceUpdate","amount":"75\.00"[^\n]*\n\{"type":"transactionCreated","amount":"75\.00","description":"Invoice 118"\}/,
      },
    ),
    heading("Filters"),
    list(
      "`accountIds=a,b`: only events about these accounts (up to 50).",
      "`statusFilter=draft,posted`: transaction events in these statuses only.",
      "`includeTransactions=false`: balance and account events only.",
      "`userId`: whose ledger; it defaults to you, and another user's is `403` (administrators may watch any user).",
    ),
    heading("In a browser: stream tickets"),
    paragraph(
      "`EventSource` cannot send an `Authorization` header, and a token must never appear in a URL, so a browser first trades its token for a stream ticket (`POST /api/v1/auth/stream-ticket`, 60 seconds, opens streams only) and connects with `?ticket=`. The same from the shell:",
    ),
    shell(
      `
TICKET=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/auth/stream-ticket" \\
  -H "Authorization: Bearer $API_KEY" | jq -r '.ticket')

: > ticket.txt
curl -sSN "$BASE_URL/api/grpc/ledger/stream?ticket=$TICKET" > ticket.txt &
STREAM=$!
until grep -q '^event: cursor' ticket.txt; do sleep 0.2; done
kill $STREAM
grep '^event: ' ticket.txt`,
      { expectOutput: /event: cursor/ },
    ),
    notRunnable(
      typescript(`
// In a web page signed in with \`token\`:
async function openLedgerStream(token: string, lastEventId?: string): Promise<EventSource> {
  const reply = await fetch("/api/v1/auth/stream-ticket", { method: "POST", headers: { Authorization: \`Bearer \${token}\` } });
  const { ticket } = await reply.json();
  const query = new URLSearchParams({ ticket, ...(lastEventId ? { lastEventId } : {}) });
  const source = new EventSource(\`/api/grpc/ledger/stream?\${query}\`);
  source.addEventListener("balanceUpdate", (message) => {
    const event = JSON.parse(message.data);
    console.log(\`\${event.accountName}: \${event.balance} \${event.currency}\`);
  });
  // A ticket opens one connection: on error, close and reconnect with a new ticket and the last id.
  source.onerror = () => source.close();
  return source;
}`),
      "This runs in a web page: EventSource exists only in browsers. The shell example above makes the same two calls.",
    ),
    heading("Commands"),
    paragraph(
      '`POST /api/grpc/ledger/command` takes one command as `{"command": {"<name>": {...}}}`: `getBalance {accountId}`, `createTransaction {type: "transfer" | "deposit", ...}` (with `Idempotency-Key`), `reconcileAccount {accountId, expectedBalance, currency}`, and `subscribeToAccount` / `subscribeToTransactions`, which answer with the stream URL that delivers exactly that subscription. A refusal is a 4xx `{"message": "Ledger command failed", "reason", "code"}`.',
    ),
    shell(
      `
command() {
  curl -sS --fail-with-body -X POST "$BASE_URL/api/grpc/ledger/command" \\
    -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" -d "$1"
}
command "$(jq -n --arg id "$ACCOUNT" '{command: {getBalance: {accountId: $id}}}')" \\
  | jq '{command, balance: .result.balance, pending_in: .result.pending_in}'

command "$(jq -n --arg id "$ACCOUNT" '{command: {subscribeToAccount: {accountId: $id}}}')" \\
  | jq -r '.result.streamUrl'`,
      { expectOutput: /"pending_in": "75\.00"[\s\S]*\/api\/grpc\/ledger\/stream\?userId=[^&\s]+&accountIds=/ },
    ),
    heading("With the SDK"),
    paragraph(
      "`fintech.stream(...)` yields `{id, event, data}` with `data` parsed, reconnects by itself with `Last-Event-ID` when the connection drops or the server ends the stream, and leaves out `cursor` messages. Leaving the loop closes the connection.",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

// Resume from the position saved above: the deposit made while nobody listened comes first.
const stream = fintech.stream("/api/grpc/ledger/stream", {
  query: { accountIds: [process.env.ACCOUNT!] },
  lastEventId: process.env.LAST_EVENT_ID!,
});
for await (const event of stream) {
  console.log(event.event, JSON.stringify(event.data));
  if (event.event === "transactionCreated") break;
}`,
      { expectOutput: /balanceUpdate \{[^\n]*"changeAmount":"75\.00"[\s\S]*transactionCreated \{/ },
    ),
    heading("Webhooks"),
    paragraph(
      "A webhook endpoint is a URL of yours that receives the events you choose as `POST` requests, so your server needs no open stream. Every event has a stable `id` (`evt_...`): the same on every stream, in every webhook and in `GET /api/v1/events`. Deliveries follow the Standard Webhooks specification: headers `webhook-id` (the event id), `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret, separated by spaces), and the body `{id, type, created_at, data}`. Answer with a 2xx within 15 seconds; anything else is retried after 5 seconds, 5 and 30 minutes, 2, 5, 10 and 10 hours. Delivery is at least once, so drop an event whose `webhook-id` you have already handled.",
    ),
    paragraph(
      "A receiver checks the signature before it trusts anything, with the `standardwebhooks` package (or its counterpart in your language) and the secret shown once when the endpoint is created. This one registers itself for `ledger.transactionCreated`, asks for a test event, and makes a deposit whose event then arrives:",
    ),
    typescript(
      `
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

let verifier: Webhook | undefined;
const handled = new Set<string>();
const headersOf = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

const server = createServer((request, reply) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    try {
      // Throws unless the body was signed with our secret, recently.
      const event = verifier!.verify(Buffer.concat(chunks).toString("utf8"), headersOf(request.headers)) as {
        id: string;
        type: string;
      };
      reply.writeHead(204).end();
      if (handled.has(event.id)) return; // a repeated delivery
      handled.add(event.id);
      console.log(\`verified \${event.type} \${event.id}\`);
    } catch {
      reply.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/webhooks\`;

// The secret is in this reply only.
const { data: created } = await fintech.api.POST("/api/v1/webhooks/endpoints", {
  body: { url, description: "Guide receiver", event_types: ["ledger.transactionCreated"] },
});
verifier = new Webhook(created.data.secret);

await fintech.api.POST("/api/v1/webhooks/endpoints/{id}/test", { params: { path: { id: created.data.endpoint.id } } });
await fintech.api.POST("/api/v1/ledger/transactions/deposit", {
  body: { account_id: process.env.ACCOUNT!, amount: "12.50", description: "Webhook guide" },
});
while (handled.size < 2) await new Promise((resolve) => setTimeout(resolve, 100));
server.close();`,
      { expectOutput: /verified webhook\.test evt_\S+\nverified ledger\.transactionCreated evt_\S+/ },
    ),
    paragraph(
      "Outside your own machine an endpoint must be `https`, and a URL whose name resolves to a private, loopback, link-local or cloud metadata address is refused when you register it and again at every delivery. The delivery log shows every attempt with its status code, latency and the first kilobyte of your answer:",
    ),
    shell(
      `
ENDPOINT=$(curl -sS --fail-with-body "$BASE_URL/api/v1/webhooks/endpoints" \\
  -H "Authorization: Bearer $API_KEY" | jq -r '.data[0].id')
export ENDPOINT

curl -sS --fail-with-body "$BASE_URL/api/v1/webhooks/endpoints/$ENDPOINT/deliveries" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -c '.data[] | {event_type, status, webhook_id: .event_id, status_code: .attempts[-1].status_code}'`,
      {
        expectOutput:
          /"event_type":"ledger\.transactionCreated","status":"succeeded","webhook_id":"evt_[^"]+","status_code":204/,
      },
    ),
    paragraph(
      "A receiver that was down catches up from the events list, oldest first, paging with `after=<last id you have>`:",
    ),
    shell(
      `
curl -sS --fail-with-body "$BASE_URL/api/v1/events?type=ledger.transactionCreated&limit=10" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '.data[] | "\\(.id) \\(.type) \\(.data.description)"'`,
      { expectOutput: /evt_\S+ ledger\.transactionCreated Webhook guide/ },
    ),
    paragraph(
      "The raw request is plain HTTP, so you can replay one you captured against your receiver with curl while you develop it (a signature older than 5 minutes is refused by the library, as it should be):",
    ),
    notRunnable(
      shell(
        `
curl -sS -X POST "https://hooks.example.com/webhooks" \\
  -H "Content-Type: application/json" \\
  -H "webhook-id: evt_mi1x2k3a0f9g8h7j6k5l4m3n00" \\
  -H "webhook-timestamp: 1795990000" \\
  -H "webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=" \\
  -d '{"id":"evt_mi1x2k3a0f9g8h7j6k5l4m3n00","type":"ledger.transactionCreated","created_at":"2026-11-29T12:00:00.000Z","data":{}}'`,
      ),
      "It needs your receiver's address and a request it captured; the example above runs the whole exchange.",
    ),
    paragraph(
      "Manage endpoints, reveal and rotate secrets (the old one keeps working for 24 hours), replay deliveries and send test events on the [Webhooks](/developers/webhooks) screen or under `/api/v1/webhooks`; `npm run webhooks:listen` runs a verifying receiver on your machine against the local stack.",
    ),
  ],
};

/**
 * In the order the documentation page lists them; ids are their anchors
 * (docs/product/developer-tools.md#documentation).
 */
export const guides: readonly DocPage[] = [gettingStarted, authentication, ledger, payments, realtime];
