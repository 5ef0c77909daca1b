import { describe, expectTypeOf, it } from "vitest";
import type { ApiKey, CreatedApiKey } from "./apiKeys";
import type { LoginBody, RegisterBody } from "./auth";
import type { HealthStatus } from "./health";
import type { ProfileChanges, UserProfile } from "./profile";
import type {
  AccountBalance,
  AccountCreatedReply,
  LedgerAccount,
  LedgerAnalytics,
  LedgerTransaction,
  PageInfo,
  TransactionWriteReply,
  TransferInput,
  StreamTicket,
} from "./types";

/**
 * The web client's wire types come from the SDK's generated schema. A path or method renamed in
 * the API would turn them into `never`, which type-checks silently everywhere: these checks
 * (compile-time, by tsc -b) make that an error instead.
 */
describe("wire types from the generated API schema", () => {
  it("describe the API keys, auth, profile and stream-ticket replies", () => {
    expectTypeOf<ApiKey>().not.toBeNever();
    expectTypeOf<ApiKey>().toHaveProperty("prefix").toEqualTypeOf<string>();
    expectTypeOf<ApiKey>().toHaveProperty("last_used_at").toEqualTypeOf<string | null>();
    expectTypeOf<CreatedApiKey>().toHaveProperty("key").toEqualTypeOf<string>();
    expectTypeOf<RegisterBody>().toHaveProperty("password").toEqualTypeOf<string>();
    expectTypeOf<LoginBody>().toHaveProperty("email").toEqualTypeOf<string>();
    expectTypeOf<UserProfile>().toHaveProperty("role").toEqualTypeOf<"user" | "admin">();
    expectTypeOf<ProfileChanges>().not.toBeNever();
    expectTypeOf<ProfileChanges>().toHaveProperty("first_name").toEqualTypeOf<string | undefined>();
    expectTypeOf<StreamTicket>().toHaveProperty("ticket").toEqualTypeOf<string>();
    expectTypeOf<HealthStatus>().toEqualTypeOf<"ok" | "degraded" | "error">();
  });

  it("describe the ledger's accounts, journals, writes, pages and analytics", () => {
    expectTypeOf<LedgerAccount>().toHaveProperty("available").toEqualTypeOf<string>();
    expectTypeOf<LedgerAccount>().toHaveProperty("status").toEqualTypeOf<"ACTIVE" | "FROZEN" | "CLOSED" | "LOCKED">();
    expectTypeOf<AccountBalance>().toHaveProperty("as_of").toEqualTypeOf<string>();
    expectTypeOf<AccountCreatedReply>().toHaveProperty("opening_transaction").toEqualTypeOf<LedgerTransaction | null>();
    expectTypeOf<LedgerTransaction>().toHaveProperty("idempotency_key").toEqualTypeOf<string | null>();
    expectTypeOf<LedgerTransaction["entries"][number]>().toHaveProperty("side").toEqualTypeOf<"debit" | "credit">();
    expectTypeOf<TransactionWriteReply>().toHaveProperty("data").toEqualTypeOf<LedgerTransaction>();
    expectTypeOf<TransferInput>().toHaveProperty("from_account_id").toEqualTypeOf<string>();
    expectTypeOf<PageInfo>().toHaveProperty("next_cursor").toEqualTypeOf<string | null>();
    expectTypeOf<LedgerAnalytics>().toHaveProperty("timezone").toEqualTypeOf<"UTC">();
  });
});
