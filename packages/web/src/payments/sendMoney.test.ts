import { describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES, type Recipient } from "@fintech/core/payments/model";
import { ApiError } from "../api/errors";
import type { LedgerAccount } from "../api/types";
import {
  emptySendForm,
  fillFromRecipient,
  payingAccounts,
  SEND_MESSAGES,
  sendProblem,
  sendRequest,
  statusView,
} from "./sendMoney";

const account = (id: string, currency: string, status = "ACTIVE") =>
  ({ id, name: id, currency, status, available_minor: 10_000 }) as unknown as LedgerAccount;
const accounts = [account("usd", "USD"), account("eur", "EUR"), account("locked", "USD", "LOCKED")];

describe("Send money's form", () => {
  it("pays from active accounts only", () => {
    expect(payingAccounts(accounts).map((item) => item.id)).toEqual(["usd", "eur"]);
  });

  it("makes the request in the paying account's currency, with the payee of the chosen kind", () => {
    const byEmail = sendRequest(
      { ...emptySendForm("usd"), email: " grace@example.com ", amount: "42.50", description: "Dinner" },
      "me",
      accounts,
    );
    expect(byEmail).toEqual({
      ok: true,
      currency: "USD",
      request: {
        userId: "me",
        fromAccountId: "usd",
        amount: "42.50",
        currency: "USD",
        description: "Dinner",
        toEmail: "grace@example.com",
      },
    });
    const external = sendRequest(
      {
        ...emptySendForm("eur"),
        payeeKind: "external",
        name: "ACME GmbH",
        accountNumber: "DE89 3704 0044 0532 0130 00",
        country: "de",
        amount: "10",
      },
      "me",
      accounts,
    );
    expect(external.ok && external.request.beneficiary).toEqual({
      name: "ACME GmbH",
      accountNumber: "DE89 3704 0044 0532 0130 00",
      country: "de",
    });
  });

  it("says what is wrong with each field, with the API's own messages (an IBAN is checked in the browser)", () => {
    const result = sendRequest(
      {
        ...emptySendForm(""),
        payeeKind: "external",
        name: "",
        accountNumber: "DE89370400440532013001",
        country: "DE",
        amount: "1.001",
        save: true,
      },
      "me",
      accounts,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        fromAccountId: SEND_MESSAGES.fromAccount,
        name: PAYMENT_MESSAGES.beneficiaryName,
        accountNumber: PAYMENT_MESSAGES.beneficiaryIban,
        amount: "USD amounts can have at most 2 decimal places",
        saveLabel: SEND_MESSAGES.saveLabel,
      },
    });
    const iban = sendRequest(
      {
        ...emptySendForm("eur"),
        payeeKind: "external",
        name: "A",
        accountNumber: "DE89370400440532013001",
        country: "DE",
        amount: "1",
      },
      "me",
      accounts,
    );
    expect(iban).toEqual({ ok: false, errors: { accountNumber: PAYMENT_MESSAGES.beneficiaryIban } });
    const country = sendRequest(
      {
        ...emptySendForm("eur"),
        payeeKind: "external",
        name: "A",
        accountNumber: "DE89370400440532013000",
        country: "FR",
        amount: "1",
      },
      "me",
      accounts,
    );
    expect(country).toEqual({ ok: false, errors: { country: PAYMENT_MESSAGES.beneficiaryIbanCountry("DE", "FR") } });
    expect(sendRequest({ ...emptySendForm("usd"), amount: "5" }, "me", accounts)).toEqual({
      ok: false,
      errors: { email: SEND_MESSAGES.emailRequired },
    });
  });

  it("fills the payee from a saved recipient", () => {
    const saved: Recipient = {
      recipientId: "r",
      label: "ACME",
      kind: "external",
      email: null,
      beneficiary: {
        name: "ACME GmbH",
        accountNumber: "DE89370400440532013000",
        bankCode: "COBADEFFXXX",
        country: "DE",
      },
      createdAt: "",
      updatedAt: "",
    };
    expect(fillFromRecipient({ ...emptySendForm("eur"), amount: "5", save: true }, saved)).toMatchObject({
      payeeKind: "external",
      name: "ACME GmbH",
      accountNumber: "DE89370400440532013000",
      bankCode: "COBADEFFXXX",
      country: "DE",
      amount: "5",
      save: false,
    });
  });

  it("a missing verification links to KYC; a waiting payment says what it waits for, never why it was screened", () => {
    expect(
      sendProblem(new ApiError("Verify your identity to pay others", "server-message", 403, "kyc_required"), "x"),
    ).toEqual({ message: "Verify your identity to pay others", code: "kyc_required", needsVerification: true });
    expect(sendProblem(new Error("boom"), "x").needsVerification).toBe(false);
    expect(statusView("held_for_review", null)).toMatchObject({
      title: "Held for review",
      tone: "waiting",
      final: false,
    });
    expect(statusView("awaiting_approval", null)).toMatchObject({ title: "Awaiting approval", final: false });
    expect(statusView("failed", "The rail refused it")).toMatchObject({
      title: "Not sent",
      detail: "The rail refused it",
      final: true,
    });
    expect(statusView("completed", null).final).toBe(true);
  });
});
