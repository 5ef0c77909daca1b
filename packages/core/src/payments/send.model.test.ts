import { describe, expect, it } from "vitest";
import {
  Beneficiary,
  CreatePaymentInput,
  CreateRecipientInput,
  filterAmountScaled,
  matchesPaymentFilters,
  PAYMENT_MESSAGES,
  PaymentListQuery,
  RECIPIENT_MESSAGES,
  type Payment,
} from "./model";

/** The browser-safe rules of sending money: the beneficiary's IBAN check, the list's filters, a recipient's shape. */

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => [issue.path.join("."), issue.message]);

describe("Beneficiary: IBANs", () => {
  it("accepts a valid IBAN of the beneficiary's country, printed with spaces or not, and stores its electronic form", () => {
    expect(
      Beneficiary.parse({ name: "ACME GmbH", accountNumber: "de89 3704 0044 0532 0130 00", country: "de" }),
    ).toEqual({ name: "ACME GmbH", accountNumber: "DE89370400440532013000", country: "DE" });
    expect(
      Beneficiary.parse({
        name: "Outside Ltd",
        accountNumber: "GB29NWBK60161331926819",
        bankCode: "NWBKGB2L",
        country: "GB",
      }).accountNumber,
    ).toBe("GB29NWBK60161331926819");
  });

  it("refuses an IBAN with wrong check digits or length, and one of another country than the beneficiary's", () => {
    expect(
      issues(Beneficiary.safeParse({ name: "A", accountNumber: "DE89370400440532013001", country: "DE" })),
    ).toEqual([["accountNumber", PAYMENT_MESSAGES.beneficiaryIban]]);
    expect(issues(Beneficiary.safeParse({ name: "A", accountNumber: "DE8937040044053201300", country: "DE" }))).toEqual(
      [["accountNumber", PAYMENT_MESSAGES.beneficiaryIban]],
    );
    expect(
      issues(Beneficiary.safeParse({ name: "A", accountNumber: "DE89370400440532013000", country: "FR" })),
    ).toEqual([["country", "The IBAN is a DE account but beneficiary.country is FR: they must match"]]);
  });

  it("leaves domestic account numbers (digits, no country prefix) alone", () => {
    expect(
      Beneficiary.parse({ name: "Jo Smith", accountNumber: "000123456789", bankCode: "021000021", country: "US" })
        .accountNumber,
    ).toBe("000123456789");
    expect(issues(Beneficiary.safeParse({ name: "Jo", accountNumber: "12", country: "US" }))).toEqual([
      ["accountNumber", PAYMENT_MESSAGES.beneficiaryAccount],
    ]);
  });

  it("is the payment body's beneficiary: the same refusals through CreatePaymentInput", () => {
    const body = {
      userId: "u",
      fromAccountId: "a",
      amount: "1",
      currency: "EUR",
      beneficiary: { name: "A", accountNumber: "DE89370400440532013000", country: "AT" },
    };
    expect(issues(CreatePaymentInput.safeParse(body))).toEqual([
      ["beneficiary.country", PAYMENT_MESSAGES.beneficiaryIbanCountry("DE", "AT")],
    ]);
  });
});

describe("the payments list's query", () => {
  it("reads dates as UTC day edges or instants, amounts as decimals, and drops blank fields", () => {
    expect(
      PaymentListQuery.parse({
        from: "2026-03-01",
        to: "2026-03-02",
        minAmount: "10",
        maxAmount: "99.5",
        q: " rent ",
        rail: "",
        counterparty: "",
      }),
    ).toEqual({
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-03-02T23:59:59.999Z",
      minAmount: "10",
      maxAmount: "99.5",
      q: "rent",
      limit: 20,
    });
    expect(PaymentListQuery.parse({ from: "2026-03-01T10:00:00+02:00" }).from).toBe("2026-03-01T08:00:00.000Z");
  });

  it("refuses what it cannot read, with the field's message", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "yesterday" }, "from must be a date (YYYY-MM-DD) or an ISO date-time"],
      [{ to: "2026-02-30" }, "to must be a date (YYYY-MM-DD) or an ISO date-time"],
      [{ from: "2026-03-02", to: "2026-03-01" }, "from must not be after to"],
      [{ minAmount: "-1" }, "minAmount must be a decimal amount of at most 12 digits and 4 decimals, e.g. 25 or 25.50"],
      [
        { maxAmount: "1e9" },
        "maxAmount must be a decimal amount of at most 12 digits and 4 decimals, e.g. 25 or 25.50",
      ],
      [{ minAmount: "10", maxAmount: "9.99" }, "minAmount must not be more than maxAmount"],
      [{ counterparty: "x".repeat(141) }, "counterparty must be 1 to 140 characters"],
      [{ q: "x".repeat(101) }, "q must be 1 to 100 characters"],
      [{ rail: "x".repeat(61) }, "A rail name is 1 to 60 characters"],
      [{ currency: "XYZ" }, "Currency must be one of "],
    ];
    for (const [query, message] of cases) {
      const result = PaymentListQuery.safeParse(query);
      expect(
        result.success ? null : result.error.issues[0]!.message.slice(0, message.length),
        JSON.stringify(query),
      ).toBe(message);
    }
  });

  it("compares amounts exactly whatever the decimals", () => {
    expect(filterAmountScaled("25.5")).toBe(filterAmountScaled("25.50"));
    expect(filterAmountScaled("100")).toBe(1_000_000n);
    expect(filterAmountScaled("0.0001")).toBe(1n);
  });

  it("matches a payment on every filter at once; the search looks in the payee and the description", () => {
    const payment = {
      status: "completed",
      selectedRail: "SEPA",
      currency: "EUR",
      amount: "42.50",
      createdAt: "2026-03-01T12:00:00.000Z",
      description: "March rent",
      payee: { kind: "external", name: "ACME GmbH", accountLast4: "3000", country: "DE" },
    } as unknown as Payment;
    const match = (query: Record<string, unknown>) => matchesPaymentFilters(payment, PaymentListQuery.parse(query));
    expect(match({})).toBe(true);
    expect(
      match({
        status: "COMPLETED",
        rail: "sepa",
        currency: "EUR",
        from: "2026-03-01",
        to: "2026-03-01",
        minAmount: "42.5",
        maxAmount: "42.50",
        counterparty: "acme",
        q: "RENT",
      }),
    ).toBe(true);
    expect(match({ status: "failed" })).toBe(false);
    expect(match({ rail: "ACH" })).toBe(false);
    expect(match({ to: "2026-02-28" })).toBe(false);
    expect(match({ minAmount: "42.51" })).toBe(false);
    expect(match({ maxAmount: "42.49" })).toBe(false);
    expect(match({ counterparty: "3000" })).toBe(true);
    expect(match({ counterparty: "rent" })).toBe(false);
    expect(match({ q: "acme" })).toBe(true);
    expect(match({ q: "salary" })).toBe(false);
  });
});

describe("a saved recipient", () => {
  it("has a label and exactly one payee", () => {
    expect(CreateRecipientInput.parse({ label: " Grace ", email: "grace@example.com" })).toEqual({
      label: "Grace",
      email: "grace@example.com",
    });
    expect(
      issues(
        CreateRecipientInput.safeParse({
          label: "Both",
          email: "a@example.com",
          beneficiary: { name: "A", accountNumber: "12345", country: "US" },
        }),
      ),
    ).toEqual([["payee", RECIPIENT_MESSAGES.onePayee]]);
    expect(issues(CreateRecipientInput.safeParse({ label: "", email: "a@example.com" }))).toEqual([
      ["label", RECIPIENT_MESSAGES.label],
    ]);
    expect(
      issues(
        CreateRecipientInput.safeParse({
          label: "Bad IBAN",
          beneficiary: { name: "A", accountNumber: "DE00370400440532013000", country: "DE" },
        }),
      ),
    ).toEqual([["beneficiary.accountNumber", PAYMENT_MESSAGES.beneficiaryIban]]);
  });
});
