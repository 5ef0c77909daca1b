import { useRef, useState } from "react";
import { toDecimalString } from "@fintech/core/money/model";
import { ApiError, errorMessage } from "../api/errors";
import { keyFor, settled, type ActionKey } from "../ledger/actionKey";
import { useLedgerAccounts } from "../ledger/hooks";
import { formatMoney } from "../lib/money";
import { useSession } from "../session/hooks";
import { useSendPayment } from "./hooks";
import { planTestPayment } from "./testPayment";

export type PaymentNotice = { tone: "error" | "info"; text: string };

/**
 * Send Test Payment, a developer aid on /payments and on the streaming demo: a real payment of
 * the smallest amount between two of the user's own accounts in one currency (testPayment.ts),
 * one Idempotency-Key per payment, kept while the same one is retried after no reply. The notice
 * is the screen's line under the button; the screen may put its own messages there too.
 */
export function useTestPayment(description: string) {
  const userId = useSession()?.user.id ?? null;
  const accounts = useLedgerAccounts();
  const send = useSendPayment();
  const [notice, setNotice] = useState<PaymentNotice | null>(null);
  const pendingKey = useRef<ActionKey | null>(null);
  const plan = accounts.data ? planTestPayment(accounts.data) : null;

  const sendTestPayment = async () => {
    if (!plan?.ok || !userId) return;
    const amount = toDecimalString(plan.amountMinor, plan.currency);
    const input = {
      userId,
      fromAccountId: plan.from.id,
      toAccountId: plan.to.id,
      amount,
      currency: plan.currency,
      description,
    };
    const action = keyFor(pendingKey.current, input);
    pendingKey.current = action;
    setNotice(null);
    try {
      const payment = await send.mutateAsync({ input, idempotencyKey: action.key });
      pendingKey.current = settled(action);
      setNotice({
        tone: "info",
        text: `Test payment of ${formatMoney(amount, plan.currency)} from ${plan.from.name} to ${plan.to.name} sent: ${payment.paymentId}`,
      });
    } catch (caught) {
      // A refusal is the server's verdict: the next click is a new payment (after a deposit, say), not a replay of it.
      if (caught instanceof ApiError && caught.status !== null && caught.status < 500)
        pendingKey.current = settled(action);
      // docs/product/payments.md#messages names the failure "Payment Create failed: …"; it is
      // logged, and said here too.
      console.warn("Payment Create failed:", caught);
      setNotice({
        tone: "error",
        text: `Payment Create failed: ${errorMessage(caught, "the payment service did not accept it")}`,
      });
    }
  };

  return {
    plan,
    accountsState: accounts.isError ? ("error" as const) : accounts.data ? ("ready" as const) : ("loading" as const),
    sending: send.isPending,
    notice,
    setNotice,
    sendTestPayment,
  };
}

export type TestPayment = ReturnType<typeof useTestPayment>;
