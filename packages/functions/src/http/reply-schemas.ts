import { z } from "zod";
import { ApiKeyView, PublicUser } from "@fintech/core/auth/model";
import { ACCOUNT_TYPES, JOURNAL_STATUSES, JOURNAL_TYPES } from "@fintech/core/ledger/model";
import { Currency } from "@fintech/core/money/model";
import { LEDGER_FEED_PATH } from "@fintech/core/events/feed-paths";
import { EXAMPLE_IDS } from "./example-ids";
import { PaginationReply } from "./openapi";

/**
 * Zod schemas of replies whose shape core describes only as TypeScript types. They document the
 * replies (the contract test checks real replies against them); core builds the replies.
 */

const ConnectionStats = {
  max_open_connections: z.number().nullable().describe("The HTTP agent's socket limit (null when unlimited)"),
  open_connections: z.number(),
  in_use: z.number(),
  idle: z.number(),
};

export const HealthReport = z.object({
  status: z.enum(["ok", "degraded", "error"]),
  message: z.string(),
  time: z.string(),
  timestamp: z.number(),
  database: z.object({
    connected: z.boolean(),
    error: z.string().nullable(),
    table_status: z.string().nullable(),
    latency_ms: z.number(),
    ...ConnectionStats,
  }),
  storage: z.object({ connected: z.boolean(), error: z.string().nullable(), latency_ms: z.number() }),
});

export const AuthenticatedHealthReport = HealthReport.extend({ user_id: z.string() });

export const healthExample = {
  status: "ok",
  message: "All systems operational",
  time: "2026-01-15T09:30:00.000Z",
  timestamp: 1768469400000,
  database: {
    connected: true,
    error: null,
    table_status: "ACTIVE",
    latency_ms: 4,
    max_open_connections: 50,
    open_connections: 1,
    in_use: 0,
    idle: 1,
  },
  storage: { connected: true, error: null, latency_ms: 3 },
};

/* ---------- ledger ---------- */

const Decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .describe('Exact decimal amount in the account\'s currency, e.g. "1250.00"');
const Minor = z.number().int().describe("The same amount in minor units (cents)");

export const AccountReply = z.object({
  id: z.string(),
  name: z.string(),
  account_number: z.string(),
  description: z.string(),
  currency: Currency,
  type: z.enum(ACCOUNT_TYPES),
  normal_side: z.enum(["debit", "credit"]),
  status: z.enum(["ACTIVE", "FROZEN", "CLOSED", "LOCKED"]),
  lock_reason: z.string().nullable(),
  created_at: z.string(),
  balance: Decimal,
  available: Decimal,
  pending_in: Decimal,
  pending_out: Decimal,
  balance_minor: Minor,
  available_minor: Minor,
  low_balance_threshold: Decimal.nullable(),
  version: z.number().int().describe("The balance chain's version: grows with every change"),
  credit_shards: z
    .number()
    .int()
    .nonnegative()
    .describe(
      "How many balance shards take the account's incoming credits besides its main chain (0: none). Set by an administrator or automatically when many payers credit the account at once; never undone. The balance figures always cover every shard.",
    ),
});

const Actor = z.object({ id: z.string(), name: z.string() });

export const JournalReply = z.object({
  id: z.string(),
  type: z.enum(JOURNAL_TYPES),
  status: z.enum(JOURNAL_STATUSES),
  amount: Decimal,
  total_amount: Decimal,
  total_amount_minor: Minor,
  currency: Currency,
  description: z.string(),
  entries: z.array(
    z.object({
      account_id: z.string(),
      account_name: z.string(),
      account_number: z.string().nullable(),
      owned: z.boolean().describe("Whether the account is the caller's (false for system counterparties)"),
      party: z
        .enum(["own", "system", "customer"])
        .describe(
          "Whose account: the caller's, a system account, or another customer's (shown by name only: id `redacted`, no number)",
        ),
      side: z.enum(["debit", "credit"]),
      debit: Decimal,
      credit: Decimal,
      amount_minor: Minor,
    }),
  ),
  from_account_id: z.string().nullable(),
  to_account_id: z.string().nullable(),
  timestamp: z.string(),
  created_at: z.string(),
  posted_at: z.string().nullable(),
  history: z.array(
    z.object({
      operation: z.enum(["create", "post", "unpost", "void"]),
      status: z.enum(JOURNAL_STATUSES),
      at: z.string(),
      by: Actor.nullable(),
    }),
  ),
  idempotency_key: z.string().nullable(),
  counterparty: z
    .string()
    .describe(
      'The other side: a system account, "From → To" between own accounts, whom a payment paid (the address or masked beneficiary), or for money received the payer\'s name',
    ),
  incoming: z
    .boolean()
    .describe(
      "Money another customer paid into the caller's account: shown from the payee's side (the amount received, the payer's name, no fee or key)",
    ),
  fee: Decimal.nullable().describe("A payment's fee (already in the amount); null for other transactions"),
  fee_minor: Minor.nullable(),
});

export const JournalWriteReply = z.object({ message: z.string(), data: JournalReply });
export const JournalDetailReply = z.object({ data: JournalReply });
export const JournalPageReply = z.object({ data: z.array(JournalReply), pagination: PaginationReply });
export const AccountListReply = z.object({ data: z.array(AccountReply) });
export const AccountDetailReply = z.object({ data: AccountReply });
export const AvailableAccountsReply = z.object({ accounts: z.array(AccountReply) });
export const AccountChangedReply = z.object({ message: z.string(), data: AccountReply });
export const CreditShardsReply = z.object({
  message: z.string(),
  data: z.object({
    account_id: z.string(),
    credit_shards: z.number().int().positive().describe("The account's credit shard count after the request"),
    converted: z.boolean().describe("False when the account already had its shards: nothing was changed"),
    at: z
      .string()
      .nullable()
      .describe("When the conversion committed (the marker in the account's history); null when nothing changed"),
  }),
});
export const AccountCreatedReply = z.object({
  message: z.string(),
  data: AccountReply,
  opening_transaction: JournalReply.nullable(),
});
export const BalanceData = AccountReply.extend({ account_id: z.string(), account_name: z.string(), as_of: z.string() });
export const BalanceReply = z.object({ data: BalanceData });

const Totals = z.object({ posted_debits: Minor, posted_credits: Minor, pending_debits: Minor, pending_credits: Minor });

export const TrialBalanceReply = z.object({
  data: z.object({
    as_of: z.string(),
    accounts: z.array(
      z.object({
        account_id: z.string(),
        account_name: z.string(),
        account_type: z.string(),
        kind: z.enum(["customer", "system", "counterparty"]),
        currency: Currency,
        debit_balance: Decimal,
        credit_balance: Decimal,
        total_debits: Decimal,
        total_credits: Decimal,
        is_balanced: z.boolean(),
        as_of: z.string(),
      }),
    ),
    totals: z.array(
      z.object({
        currency: Currency,
        total_debit_balance: Decimal,
        total_credit_balance: Decimal,
        is_balanced: z.boolean(),
      }),
    ),
    is_balanced: z.boolean(),
  }),
});

export const IntegrityReply = z.object({
  data: z.object({
    checked_at: z.string(),
    scope: z.enum(["owner", "ledger"]),
    accounts_checked: z.number().int(),
    journals_checked: z.number().int(),
    drift: z.array(z.object({ account_id: z.string(), account_name: z.string(), recorded: Totals, expected: Totals })),
    unbalanced_journals: z.array(z.string()),
    ok: z.boolean(),
  }),
});

const MONEY_FIELDS = [
  "balance",
  "available",
  "pending_in",
  "pending_out",
  "inflow_posted",
  "outflow_posted",
  "inflow_pending",
  "outflow_pending",
] as const;
const DayReply = z.object({
  date: z.string(),
  transactions: z.number().int(),
  ...Object.fromEntries(
    MONEY_FIELDS.flatMap((field) => [
      [field, Decimal],
      [`${field}_minor`, Minor],
    ]),
  ),
});
const Opening = { opening_balance: Decimal, opening_balance_minor: Minor };

export const AnalyticsReply = z.object({
  data: z.object({
    days: z.number().int(),
    from: z.string(),
    to: z.string(),
    timezone: z.literal("UTC"),
    generated_at: z.string(),
    accounts: z.array(
      z.object({
        account_id: z.string(),
        name: z.string(),
        account_number: z.string(),
        type: z.enum(ACCOUNT_TYPES),
        currency: Currency,
        normal_side: z.enum(["debit", "credit"]),
        status: z.enum(["ACTIVE", "FROZEN", "CLOSED"]),
        created_at: z.string(),
        ...Opening,
        series: z.array(DayReply),
      }),
    ),
    currencies: z.array(
      z.object({ currency: Currency, account_count: z.number().int(), ...Opening, series: z.array(DayReply) }),
    ),
  }),
});

/* ---------- examples ---------- */

export { EXAMPLE_IDS };

export const accountExample = {
  id: EXAMPLE_IDS.account,
  name: "Everyday",
  account_number: "ACC-4821-0093",
  description: "Day-to-day spending",
  currency: "USD",
  type: "bank",
  normal_side: "debit",
  status: "ACTIVE",
  lock_reason: null,
  created_at: "2026-01-15T09:30:00.000Z",
  balance: "1250.00",
  available: "1150.00",
  pending_in: "0.00",
  pending_out: "100.00",
  balance_minor: 125000,
  available_minor: 115000,
  low_balance_threshold: null,
  version: 4,
  credit_shards: 0,
} as const;

export const savingsExample = {
  ...accountExample,
  id: EXAMPLE_IDS.savings,
  name: "Savings",
  account_number: "ACC-4821-0094",
  description: "",
  balance: "0.00",
  available: "0.00",
  pending_out: "0.00",
  balance_minor: 0,
  available_minor: 0,
  version: 1,
} as const;

export const journalExample = {
  id: EXAMPLE_IDS.journal,
  type: "transfer",
  status: "draft",
  amount: "100.00",
  total_amount: "100.00",
  total_amount_minor: 10000,
  currency: "USD",
  description: "Rent share",
  entries: [
    {
      account_id: EXAMPLE_IDS.account,
      account_name: "Everyday",
      account_number: "ACC-4821-0093",
      owned: true,
      party: "own",
      side: "credit",
      debit: "0",
      credit: "100.00",
      amount_minor: 10000,
    },
    {
      account_id: EXAMPLE_IDS.savings,
      account_name: "Savings",
      account_number: "ACC-4821-0094",
      owned: true,
      party: "own",
      side: "debit",
      debit: "100.00",
      credit: "0",
      amount_minor: 10000,
    },
  ],
  from_account_id: EXAMPLE_IDS.account,
  to_account_id: EXAMPLE_IDS.savings,
  timestamp: "2026-01-15T10:00:00.000Z",
  created_at: "2026-01-15T10:00:00.000Z",
  posted_at: null,
  history: [
    {
      operation: "create",
      status: "draft",
      at: "2026-01-15T10:00:00.000Z",
      by: { id: EXAMPLE_IDS.user, name: "Ada Lovelace" },
    },
  ],
  idempotency_key: "4f9c2a1e-7b3d-4c56-9a0e-1d2f3b4c5d6e",
  counterparty: "Everyday → Savings",
  incoming: false,
  fee: null,
  fee_minor: null,
} as const;

export const postedJournalExample = {
  ...journalExample,
  status: "posted",
  timestamp: "2026-01-15T10:05:00.000Z",
  posted_at: "2026-01-15T10:05:00.000Z",
  history: [
    ...journalExample.history,
    {
      operation: "post",
      status: "posted",
      at: "2026-01-15T10:05:00.000Z",
      by: { id: EXAMPLE_IDS.user, name: "Ada Lovelace" },
    },
  ],
} as const;

export const depositExample = {
  ...journalExample,
  type: "deposit",
  description: "Salary",
  amount: "2500.00",
  total_amount: "2500.00",
  total_amount_minor: 250000,
  entries: [
    {
      account_id: EXAMPLE_IDS.account,
      account_name: "Everyday",
      account_number: "ACC-4821-0093",
      owned: true,
      party: "own",
      side: "debit",
      debit: "2500.00",
      credit: "0",
      amount_minor: 250000,
    },
    {
      account_id: "sys-funding-usd",
      account_name: "External funding",
      account_number: null,
      owned: false,
      party: "system",
      side: "credit",
      debit: "0",
      credit: "2500.00",
      amount_minor: 250000,
    },
  ],
  from_account_id: "sys-funding-usd",
  to_account_id: EXAMPLE_IDS.account,
  counterparty: "External funding",
} as const;

/* ---------- users, sessions, API keys ---------- */

export const userExample = {
  id: EXAMPLE_IDS.user,
  email: "ada@example.com",
  email_verified: true,
  first_name: "Ada",
  last_name: "Lovelace",
  role: "user",
  phone: "+44 20 7946 0958",
  date_of_birth: "1990-12-10T00:00:00.000Z",
  created_at: "2026-01-15T09:00:00.000Z",
  updated_at: "2026-01-15T09:00:00.000Z",
} as const;

export const SessionReply = z.object({
  message: z.string(),
  data: z.object({ token: z.string(), expires_at: z.string(), user: PublicUser }),
});

export const sessionExample = (message: string) => ({
  message,
  data: {
    token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2ZjFjMmI5ZSJ9.c2lnbmF0dXJl",
    expires_at: "2026-01-16T09:00:00.000Z",
    user: userExample,
  },
});

export const StreamTicketReply = z.object({
  ticket: z.string().describe(`Pass as \`?ticket=\` to GET ${LEDGER_FEED_PATH} (EventSource cannot send headers)`),
  expires_at: z.string(),
  expires_in: z.number().int().describe("Seconds the ticket can open streams for"),
});

export const ProfileReply = z.object({ data: PublicUser });
export const ProfileUpdatedReply = z.object({ message: z.string(), data: PublicUser });

export const ApiKeyListReply = z.object({ data: z.array(ApiKeyView) });
export const ApiKeyCreatedReply = z.object({
  message: z.string(),
  data: ApiKeyView.extend({ key: z.string().describe("The key itself: shown in this reply only, never again") }),
});
export const ApiKeyRevokedReply = z.object({ message: z.string(), data: ApiKeyView });

export const apiKeyExample = {
  id: EXAMPLE_IDS.apiKey,
  name: "Reconciliation script",
  prefix: "fpk_3xQ9aB7c",
  created_at: "2026-01-15T09:45:00.000Z",
  last_used_at: null,
  revoked_at: null,
  scopes: ["ledger:read", "payments:read"],
} as const;
