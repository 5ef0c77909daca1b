import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { PAYMENT_MESSAGES, PaymentQuoteReply, RECIPIENT_MESSAGES, RECIPIENTS_MAX } from "@fintech/core/payments/model";
import { verifyForTests } from "@fintech/testing/limits";
import { advancePayment } from "@fintech/core/payments/worker";

/**
 * What the Send money screen and the payments list stand on, through the HTTP app: the list's
 * filters, search and cursors; a payment's detail (timeline, routing, fee charged) for its payer
 * and administrators only, never telling the payer why it waited; saved recipients (owned,
 * bounded, nothing written on a refusal); the beneficiary's IBAN check. The clock is controlled,
 * the worker called directly.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string; email: string } };
let t: TestApp;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
let payer: Session;
let payee: Session;
let stranger: Session;
let adminToken: string;
let checking: { id: string };
let savings: { id: string };

const DAY = 86_400_000;

async function openAccount(token: string, name: string, currency = "USD") {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency, type: "bank" } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function fund(token: string, accountId: string, amount: string) {
  const created = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect((await t.call("POST", `/api/v1/ledger/transactions/${created.body.data.id}/post`, { token })).status).toBe(
    200,
  );
}

const pay = async (body: Record<string, unknown>, key?: string) => {
  const reply = await t.call("POST", "/v1/payments", {
    token: payer.token,
    body: { userId: payer.user.id, fromAccountId: checking.id, currency: "USD", ...body },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });
  return reply;
};

async function finish(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(t.core, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

const ids = (reply: { body: Record<string, unknown> }) =>
  (reply.body.data as { paymentId: string }[]).map((payment) => payment.paymentId);
const list = (query: string, token = payer.token) => t.call("GET", `/v1/payments?${query}`, { token });

beforeAll(async () => {
  t = await createTestApp(
    { PAYMENT_RATE_LIMIT_PER_MINUTE: "1000", TOKEN_TTL_SECONDS: String(30 * 86_400) },
    { clock: () => new Date(nowMs) },
  );
  payer = await t.signUp("send-payer@example.com", { first_name: "Sen", last_name: "Der" });
  payee = await t.signUp("send-payee@example.com", { first_name: "Re", last_name: "Ceiver" });
  stranger = await t.signUp("send-stranger@example.com");
  await verifyForTests(t.core, payer.user.id);
  checking = await openAccount(payer.token, "Checking");
  savings = await openAccount(payer.token, "Savings");
  await openAccount(payee.token, "Payee main");
  await fund(payer.token, checking.id, "5000.00");
  expect((await t.call("GET", "/api/v1/rails", { token: payer.token })).status).toBe(200);
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "send-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  adminToken = (
    await t.call("POST", "/api/v1/auth/login", {
      body: { email: "send-admin@example.com", password: "admin password 1" },
      ip: nextTestAddress(),
    })
  ).body.data.token;
});
afterAll(async () => t.core.dispose());

describe("the payments list's filters", () => {
  const made: Record<string, string> = {};

  beforeAll(async () => {
    // Three days, three payees, amounts 5 to 300.
    const plan: [string, Record<string, unknown>][] = [
      ["rent", { toEmail: "send-payee@example.com", amount: "300.00", description: "March rent" }],
      ["savings", { toAccountId: savings.id, amount: "5.00", description: "Rainy day" }],
      [
        "acme",
        {
          beneficiary: { name: "ACME Supplies", accountNumber: "000123456789", bankCode: "021000021", country: "US" },
          amount: "42.50",
          description: "Invoice 7",
        },
      ],
    ];
    for (const [name, body] of plan) {
      const created = await pay(body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      made[name] = created.body.payment.paymentId;
      await finish(made[name]!);
      nowMs += DAY;
    }
  });

  it("filters by status, rail, date, amount, counterparty and search, combined", async () => {
    const all = await list("limit=100");
    expect(ids(all)).toEqual([made.acme, made.savings, made.rent]);
    const statusOf = Object.fromEntries(
      all.body.data.map((payment: { paymentId: string; status: string }) => [payment.paymentId, payment.status]),
    );
    const railOf = Object.fromEntries(
      all.body.data.map((payment: { paymentId: string; selectedRail: string }) => [
        payment.paymentId,
        payment.selectedRail,
      ]),
    );
    const onAcmeRail = ids(all).filter((id) => railOf[id] === railOf[made.acme!]);
    const cases: [string, string[]][] = [
      [`rail=${railOf[made.acme!].toLowerCase()}`, onAcmeRail],
      ["from=2026-03-03&to=2026-03-03", [made.savings!]],
      ["from=2026-03-03", [made.acme!, made.savings!]],
      ["to=2026-03-02", [made.rent!]],
      ["minAmount=42.5&maxAmount=300", [made.acme!, made.rent!]],
      ["maxAmount=5", [made.savings!]],
      ["counterparty=SEND-PAYEE", [made.rent!]],
      ["counterparty=6789", [made.acme!]],
      ["q=rent", [made.rent!]],
      ["q=acme", [made.acme!]],
      ["q=rainy&minAmount=1", [made.savings!]],
      [`q=rent&rail=${railOf[made.acme!]}`, railOf[made.rent!] === railOf[made.acme!] ? [made.rent!] : []],
      [`status=${statusOf[made.rent!]}&q=march`, [made.rent!]],
      ["currency=EUR", []],
    ];
    for (const [query, expected] of cases) {
      const reply = await list(query);
      expect([reply.status, ids(reply)], query).toEqual([200, expected]);
    }
  });

  it("pages a filtered list with cursors bound to its filters and owner", async () => {
    const first = await list("limit=1&from=2026-03-02");
    expect(ids(first)).toEqual([made.acme]);
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    const second = await list(`limit=1&from=2026-03-02&cursor=${cursor}`);
    expect(ids(second)).toEqual([made.savings]);
    for (const other of [
      `limit=1&from=2026-03-03&cursor=${cursor}`,
      `limit=1&cursor=${cursor}`,
      `limit=1&from=2026-03-02&q=x&cursor=${cursor}`,
    ]) {
      const reply = await list(other);
      expect([reply.status, reply.body.code], other).toEqual([400, "invalid_cursor"]);
    }
    expect((await list(`limit=1&from=2026-03-02&cursor=${cursor}`, stranger.token)).status).toBe(400);
  });

  it("refuses unreadable filters with a 400 and the field's message", async () => {
    const cases: [string, string][] = [
      ["from=yesterday", "from must be a date (YYYY-MM-DD) or an ISO date-time"],
      ["from=2026-03-04&to=2026-03-01", "from must not be after to"],
      ["minAmount=abc", "minAmount must be a decimal amount of at most 12 digits and 4 decimals, e.g. 25 or 25.50"],
      ["minAmount=10&maxAmount=1", "minAmount must not be more than maxAmount"],
      [`q=${"x".repeat(101)}`, "q must be 1 to 100 characters"],
      [`counterparty=${"x".repeat(141)}`, "counterparty must be 1 to 140 characters"],
      [`rail=${"x".repeat(61)}`, "A rail name is 1 to 60 characters"],
    ];
    for (const [query, message] of cases) {
      const reply = await list(query);
      expect([reply.status, reply.body.code, reply.body.message], query).toEqual([400, "validation_error", message]);
    }
    // Blank filters are no filters (what an emptied form field sends).
    expect(ids(await list("q=&rail=&from=&minAmount=&counterparty=&limit=100"))).toHaveLength(3);
  });

  it("the detail of a completed payment: timeline, routing and the fee charged", async () => {
    const reply = await t.call("GET", `/v1/payments/${made.rent}/detail`, { token: payer.token });
    expect(reply.status).toBe(200);
    const { payment, timeline, routing, feeCharged } = reply.body.data;
    expect(payment.paymentId).toBe(made.rent);
    const kinds = timeline.map((entry: { kind: string }) => entry.kind);
    expect(kinds.slice(0, 3)).toEqual(["created", "held", "attempt_started"]);
    const sorted = [...timeline].sort((a: { at: string }, b: { at: string }) =>
      a.at < b.at ? -1 : a.at > b.at ? 1 : 0,
    );
    expect(timeline.map((entry: { at: string }) => entry.at)).toEqual(sorted.map((entry: { at: string }) => entry.at));
    expect(timeline.filter((entry: { kind: string }) => entry.kind === "attempt_started")).toHaveLength(
      payment.attempts.length,
    );
    expect(timeline[1].title).toBe(`${(300 + payment.feeMinor / 100).toFixed(2)} USD held`);
    if (payment.status === "completed") {
      expect(kinds.at(-1)).toBe("posted");
      expect(feeCharged).toEqual({
        fee: payment.fee,
        feeMinor: payment.feeMinor,
        currency: "USD",
        note: `Charged on completion (${payment.selectedRail})`,
      });
    } else {
      expect(kinds.at(-1)).toBe("released");
      expect(feeCharged).toMatchObject({ fee: "0.00", feeMinor: 0 });
    }
    expect(routing.eligible.length + routing.excluded.length).toBe(payment.routing.candidates.length);
    expect(
      routing.eligible.filter((rail: { chosen: boolean }) => rail.chosen).map((rail: { rail: string }) => rail.rail),
    ).toEqual(routing.eligible.some((rail: { chosen: boolean }) => rail.chosen) ? [routing.chosenRail] : []);
    for (const excluded of routing.excluded) expect(excluded.reason.length).toBeGreaterThan(0);
  });

  it("only the payer and administrators read a detail: anyone else gets the same 404 as an unknown id", async () => {
    expect((await t.call("GET", `/v1/payments/${made.rent}/detail`, { token: adminToken })).status).toBe(200);
    const cases = [
      await t.call("GET", `/v1/payments/${made.rent}/detail`, { token: stranger.token }),
      await t.call("GET", `/v1/payments/${made.rent}/detail`, { token: payee.token }),
      await t.call("GET", "/v1/payments/00000000-0000-4000-8000-000000000000/detail", { token: payer.token }),
      await t.call("GET", `/v1/payments/${"x".repeat(3000)}/detail`, { token: payer.token }),
    ];
    for (const reply of cases) expect([reply.status, reply.body.code]).toEqual([404, "payment_not_found"]);
    expect((await t.call("GET", `/v1/payments/${made.rent}/detail`)).status).toBe(401);
    expect((await t.call("GET", `/v1/payments/${made.rent}/detail`, { token: "forged.token.value" })).status).toBe(401);
  });
});

describe("the quote the Send money screen reads", () => {
  it("matches the screen's schema for a person by email and an external IBAN", async () => {
    const bodies = [
      { toEmail: "send-payee@example.com", amount: "42.50" },
      {
        beneficiary: { name: "ACME GmbH", accountNumber: "GB29 NWBK 6016 1331 9268 19", country: "GB" },
        amount: "10.00",
      },
    ];
    for (const body of bodies) {
      const reply = await t.call("POST", "/v1/payments/quote", {
        token: payer.token,
        body: { userId: payer.user.id, fromAccountId: checking.id, currency: "USD", ...body },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const parsed = PaymentQuoteReply.safeParse(reply.body);
      expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(reply.body)).toEqual([]);
    }
  });
});

describe("a payment that waited for review", () => {
  it("shows the wait and the outcome to its payer, never the screening match or the administrator's reason", async () => {
    const created = await pay({
      beneficiary: { name: "Jong Un Kim", accountNumber: "0532013000", country: "CN" },
      amount: "10.00",
    });
    expect(created.status).toBe(201);
    expect(created.body.payment.status).toBe("held_for_review");
    const id = created.body.payment.paymentId as string;
    const waiting = await t.call("GET", `/v1/payments/${id}/detail`, { token: payer.token });
    expect(waiting.body.data.timeline.map((entry: { kind: string }) => entry.kind)).toEqual([
      "created",
      "held",
      "waiting",
    ]);
    expect(waiting.body.data.feeCharged.note).toBe(
      "Held while the payment waits for a decision; charged only if it completes",
    );
    const reason = "Different person: date of birth differs from the list entry";
    const decided = await t.call("POST", `/v1/payments/${id}/decision`, {
      token: adminToken,
      body: { decision: "reject", reason },
    });
    expect(decided.status).toBe(200);
    const after = await t.call("GET", `/v1/payments/${id}/detail`, { token: payer.token });
    const kinds = after.body.data.timeline.map((entry: { kind: string }) => entry.kind);
    expect(kinds).toEqual(["created", "held", "waiting", "decided", "released"]);
    expect(after.body.data.timeline[3]).toMatchObject({
      title: "Refused after review",
      detail: PAYMENT_MESSAGES.refusedAfterReview,
    });
    expect(after.body.data.feeCharged).toMatchObject({ fee: "0.00", note: "Nothing charged: the hold was released" });
    const text = JSON.stringify(after.body);
    for (const secret of [
      reason,
      "send-admin@example.com",
      "KIM, Jong",
      "Seeded sanctions",
      "matchedName",
      "screening",
    ])
      expect(text).not.toContain(secret);
  });
});

describe("POST /v1/payments: the beneficiary's IBAN", () => {
  it("refuses an invalid IBAN, or one of another country, with a clear 400; nothing is written", async () => {
    const before = await dataItems(t.core);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "ACME GmbH", accountNumber: "DE89370400440532013001", country: "DE" }, PAYMENT_MESSAGES.beneficiaryIban],
      [
        { name: "ACME GmbH", accountNumber: "DE89 3704 0044 0532 0130 00", country: "FR" },
        PAYMENT_MESSAGES.beneficiaryIbanCountry("DE", "FR"),
      ],
    ];
    for (const [beneficiary, message] of cases) {
      const reply = await pay({ beneficiary, amount: "1.00" }, "iban-key");
      expect([reply.status, reply.body.code, reply.body.message]).toEqual([400, "validation_error", message]);
    }
    expect(await dataItems(t.core)).toEqual(before);
  });
});

describe("saved recipients", () => {
  const add = (body: unknown, token = payer.token) => t.call("POST", "/v1/payments/recipients", { token, body });

  it("adds, lists (by label), renames and deletes the caller's own recipients", async () => {
    const grace = await add({ label: "Grace", email: "Grace@Example.com" });
    expect(grace.status).toBe(201);
    expect(grace.body.data).toMatchObject({
      label: "Grace",
      kind: "user",
      email: "grace@example.com",
      beneficiary: null,
    });
    const acme = await add({
      label: "ACME (invoices)",
      beneficiary: {
        name: "ACME GmbH",
        accountNumber: "de89 3704 0044 0532 0130 00",
        bankCode: "COBADEFFXXX",
        country: "de",
      },
    });
    expect(acme.status).toBe(201);
    expect(acme.body.data.beneficiary).toEqual({
      name: "ACME GmbH",
      accountNumber: "DE89370400440532013000",
      bankCode: "COBADEFFXXX",
      country: "DE",
    });
    const listed = await t.call("GET", "/v1/payments/recipients", { token: payer.token });
    expect(listed.body.data.map((recipient: { label: string }) => recipient.label)).toEqual([
      "ACME (invoices)",
      "Grace",
    ]);
    const renamed = await t.call("PATCH", `/v1/payments/recipients/${grace.body.data.recipientId}`, {
      token: payer.token,
      body: { label: "Grace (rent)" },
    });
    expect([renamed.status, renamed.body.data.label, renamed.body.data.email]).toEqual([
      200,
      "Grace (rent)",
      "grace@example.com",
    ]);
    const deleted = await t.call("DELETE", `/v1/payments/recipients/${acme.body.data.recipientId}`, {
      token: payer.token,
    });
    expect([deleted.status, deleted.body.message]).toEqual([200, "Recipient deleted"]);
    const after = await t.call("GET", "/v1/payments/recipients", { token: payer.token });
    expect(after.body.data.map((recipient: { label: string }) => recipient.label)).toEqual(["Grace (rent)"]);
    // Nobody else sees them.
    expect((await t.call("GET", "/v1/payments/recipients", { token: stranger.token })).body.data).toEqual([]);
  });

  it("refuses bad input, another user's ids and unknown ids, writing nothing", async () => {
    const mine = (await add({ label: "Keep", email: "keep@example.com" })).body.data.recipientId as string;
    const before = await dataItems(t.core);
    const refusals: [string, string, unknown, string | undefined, number, string][] = [
      ["POST", "/v1/payments/recipients", {}, undefined, 400, RECIPIENT_MESSAGES.label],
      [
        "POST",
        "/v1/payments/recipients",
        { label: "Both", email: "a@example.com", beneficiary: { name: "A", accountNumber: "12345", country: "US" } },
        undefined,
        400,
        RECIPIENT_MESSAGES.onePayee,
      ],
      [
        "POST",
        "/v1/payments/recipients",
        { label: "x".repeat(61), email: "a@example.com" },
        undefined,
        400,
        RECIPIENT_MESSAGES.label,
      ],
      [
        "POST",
        "/v1/payments/recipients",
        { label: "Bad", email: "not-an-email" },
        undefined,
        400,
        RECIPIENT_MESSAGES.email,
      ],
      [
        "POST",
        "/v1/payments/recipients",
        { label: "Bad", beneficiary: { name: "A", accountNumber: "DE89370400440532013001", country: "DE" } },
        undefined,
        400,
        PAYMENT_MESSAGES.beneficiaryIban,
      ],
      [
        "POST",
        "/v1/payments/recipients",
        { label: "Extra", email: "a@example.com", admin: true },
        undefined,
        400,
        "Unknown field: admin",
      ],
      ["PATCH", `/v1/payments/recipients/${mine}`, { label: "" }, undefined, 400, RECIPIENT_MESSAGES.label],
      [
        "PATCH",
        `/v1/payments/recipients/${mine}`,
        { label: "Theirs" },
        stranger.token,
        404,
        RECIPIENT_MESSAGES.notFound,
      ],
      ["DELETE", `/v1/payments/recipients/${mine}`, undefined, stranger.token, 404, RECIPIENT_MESSAGES.notFound],
      [
        "PATCH",
        "/v1/payments/recipients/00000000-0000-4000-8000-000000000000",
        { label: "Ghost" },
        undefined,
        404,
        RECIPIENT_MESSAGES.notFound,
      ],
      ["DELETE", `/v1/payments/recipients/${"x".repeat(3000)}`, undefined, undefined, 404, RECIPIENT_MESSAGES.notFound],
      [
        "DELETE",
        "/v1/payments/recipients/00000000-0000-4000-8000-000000000000",
        undefined,
        undefined,
        404,
        RECIPIENT_MESSAGES.notFound,
      ],
    ];
    for (const [method, path, body, token, status, message] of refusals) {
      const reply = await t.call(method, path, {
        token: token ?? payer.token,
        ...(body === undefined ? {} : { body }),
      });
      expect(
        [reply.status, reply.body.message],
        `${method} ${path.slice(0, 60)} ${JSON.stringify(body)?.slice(0, 60)}`,
      ).toEqual([status, message]);
    }
    expect((await t.call("GET", "/v1/payments/recipients")).status).toBe(401);
    expect(await dataItems(t.core)).toEqual(before);
  });

  it(`keeps at most ${RECIPIENTS_MAX} per user; deleting one makes room`, async () => {
    const existing = (await t.call("GET", "/v1/payments/recipients", { token: payee.token })).body.data
      .length as number;
    let last = "";
    for (let index = existing; index < RECIPIENTS_MAX; index += 1) {
      const reply = await add({ label: `Friend ${index}`, email: `friend-${index}@example.com` }, payee.token);
      expect(reply.status).toBe(201);
      last = reply.body.data.recipientId;
    }
    const over = await add({ label: "One too many", email: "over@example.com" }, payee.token);
    expect([over.status, over.body.code, over.body.message]).toEqual([
      422,
      "too_many_recipients",
      RECIPIENT_MESSAGES.tooMany,
    ]);
    expect((await t.call("DELETE", `/v1/payments/recipients/${last}`, { token: payee.token })).status).toBe(200);
    expect((await add({ label: "Now fits", email: "fits@example.com" }, payee.token)).status).toBe(201);
    expect((await t.call("GET", "/v1/payments/recipients", { token: payee.token })).body.data).toHaveLength(
      RECIPIENTS_MAX,
    );
  });
});
