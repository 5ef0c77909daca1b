import { heading, json, notRunnable, paragraph, shell, typescript, type DocPage } from "../docs/content";

/**
 * /developers/quickstart: from sign-up to a first transfer with an API key. Data in the docs'
 * block format, so infra/docs/guide-examples.test.ts runs every step against a real server.
 */
export const quickstart: DocPage = {
  id: "quickstart",
  title: "Quickstart",
  icon: "🏁",
  description:
    "From sign-up to your first transfer with an API key, in seven steps, with curl and with the TypeScript SDK.",
  requires: ["BASE_URL"],
  content: [
    heading("1. Start the platform", "start"),
    paragraph(
      "Clone the repository and start it: DynamoDB Local, the S3 emulator, the API and this site run on one port, http://localhost:3000. It needs Node 20.19+ and Java 17+; the shell steps below use `curl` and `jq`.",
    ),
    notRunnable(
      shell(`
npm ci
npm start
export BASE_URL=http://localhost:3000`),
      "This starts the platform and keeps running: leave it in its own terminal and run the next steps in another. (The docs test starts a server of its own instead.)",
    ),
    heading("2. Sign up", "sign-up"),
    paragraph("Create your user. The reply carries a session token for the next step (it lasts 24 hours)."),
    shell(
      `
TOKEN=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/auth/register" \\
  -H "Content-Type: application/json" \\
  -d '{"email": "you@example.com", "password": "a long passphrase", "first_name": "Grace", "last_name": "Hopper"}' \\
  | jq -r '.data.token')
export TOKEN
echo "Signed up"`,
      { expectOutput: /Signed up/ },
    ),
    heading("3. Create an API key", "api-key"),
    paragraph(
      "Create a key with your session (or on the [API keys](/developers/api-keys) screen). Copy it now: it is shown only once. From here on, every call uses the key.",
    ),
    shell(
      `
API_KEY=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/api-keys" \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "quickstart"}' \\
  | jq -r '.data.key')
export API_KEY
echo "API key \${API_KEY:0:12}..."`,
      { expectOutput: /API key fpk_/ },
    ),
    heading("4. Open two accounts", "accounts"),
    shell(
      `
open_account() {
  curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/accounts" \\
    -H "Authorization: Bearer $API_KEY" \\
    -H "Content-Type: application/json" \\
    -d "$(jq -n --arg name "$1" '{name: $name, currency: "USD"}')" \\
    | jq -r '.data.id'
}
SPENDING=$(open_account "Spending")
SAVINGS=$(open_account "Savings")
export SPENDING SAVINGS
echo "Spending $SPENDING"
echo "Savings  $SAVINGS"`,
      { expectOutput: /Spending [0-9a-f-]{36}\nSavings  [0-9a-f-]{36}/ },
    ),
    heading("5. Deposit money and post it", "deposit"),
    paragraph("A deposit is created as a draft (pending); posting it puts the money in the balance."),
    shell(
      `
DEPOSIT=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/deposit" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: quickstart-deposit-1" \\
  -d "$(jq -n --arg account "$SPENDING" '{account_id: $account, amount: "100.00", currency: "USD", description: "First deposit"}')" \\
  | jq -r '.data.id')

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/$DEPOSIT/post" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '"deposit \\(.data.amount) \\(.data.status)"'`,
      { expectOutput: /deposit 100\.00 posted/ },
    ),
    heading("6. Make your first transfer", "transfer"),
    paragraph(
      "Send an `Idempotency-Key` with every write: if the reply is lost, repeat the request with the same key and the transfer happens once (the repeat answers the first reply, with `Idempotent-Replayed: true`). Then post it.",
    ),
    shell(
      `
TRANSFER=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/transfer" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: quickstart-transfer-1" \\
  -d "$(jq -n --arg from "$SPENDING" --arg to "$SAVINGS" \\
    '{from_account_id: $from, to_account_id: $to, amount: "25.00", currency: "USD", description: "My first transfer"}')" \\
  | jq -r '.data.id')
echo "transfer $TRANSFER"

curl -sS --fail-with-body -X POST "$BASE_URL/api/v1/ledger/transactions/$TRANSFER/post" \\
  -H "Authorization: Bearer $API_KEY" \\
  | jq -r '"\\(.data.counterparty): \\(.data.amount) \\(.data.status)"'`,
      { expectOutput: /transfer [0-9a-f-]{36}\nSpending → Savings: 25\.00 posted/ },
    ),
    json(
      `{
  "message": "Transaction posted",
  "data": {
    "id": "618808df-c10b-52af-ad6a-df32b9673c96",
    "type": "transfer",
    "status": "posted",
    "amount": "25.00",
    "currency": "USD",
    "counterparty": "Spending → Savings",
    "idempotency_key": "quickstart-transfer-1",
    "entries": [
      { "account_name": "Spending", "side": "credit", "debit": "0", "credit": "25.00" },
      { "account_name": "Savings", "side": "debit", "debit": "25.00", "credit": "0" }
    ]
  }
}`,
      "Reply (shortened)",
    ),
    heading("7. Read the balances", "balance"),
    shell(
      `
for account in "$SPENDING" "$SAVINGS"; do
  curl -sS --fail-with-body "$BASE_URL/api/v1/ledger/accounts/$account/balance" \\
    -H "Authorization: Bearer $API_KEY" \\
    | jq -r '"\\(.data.name): \\(.data.balance) \\(.data.currency)"'
done`,
      { expectOutput: /Spending: 75\.00 USD\nSavings: 25\.00 USD/ },
    ),
    heading("The same in TypeScript", "typescript"),
    paragraph(
      "With the SDK (`@fintech/sdk`) and the API key from step 3: open two accounts, fund one, transfer and read the balance. Every call is typed from the API's OpenAPI document, and a failure throws a `FintechError`.",
    ),
    typescript(
      `
import { createFintechClient } from "@fintech/sdk";

const fintech = createFintechClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

const { data: travel } = await fintech.api.POST("/api/v1/ledger/accounts", { body: { name: "Travel", currency: "USD" } });
const { data: savings } = await fintech.api.POST("/api/v1/ledger/accounts", { body: { name: "Rainy day", currency: "USD" } });

const { data: deposit } = await fintech.api.POST("/api/v1/ledger/transactions/deposit", {
  body: { account_id: travel.data.id, amount: "100.00", currency: "USD", description: "First deposit" },
});
await fintech.api.POST("/api/v1/ledger/transactions/{id}/post", { params: { path: { id: deposit.data.id } } });

const { data: transfer } = await fintech.api.POST("/api/v1/ledger/transactions/transfer", {
  body: { from_account_id: travel.data.id, to_account_id: savings.data.id, amount: "25.00", currency: "USD", description: "My first transfer" },
  headers: { "Idempotency-Key": "quickstart-transfer-sdk-1" },
});
await fintech.api.POST("/api/v1/ledger/transactions/{id}/post", { params: { path: { id: transfer.data.id } } });
console.log("transfer", transfer.data.id);

const { data: balance } = await fintech.api.GET("/api/v1/ledger/accounts/{id}/balance", { params: { path: { id: savings.data.id } } });
console.log(\`\${balance.data.name}: \${balance.data.balance} \${balance.data.currency}\`);`,
      { expectOutput: /transfer [0-9a-f-]{36}\nRainy day: 25\.00 USD/ },
    ),
    heading("Next steps", "next"),
    paragraph(
      "Read the [guides](/developers/docs), try every endpoint in the [API explorer](/developers/api-explorer), and see complete [examples](/developers/examples): retries, paging, CSV export, streaming and error handling.",
    ),
  ],
};
