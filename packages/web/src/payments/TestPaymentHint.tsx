import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { toDecimalString } from "@fintech/core/money/model";
import { subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import type { TestPayment } from "./useTestPayment";

/**
 * Why Send Test Payment is off, or what it will do; a missing account or funds link to the
 * ledger. `notYet`: why a ready payment cannot be sent yet (null when it can); `then`: a sentence
 * after what it will do.
 */
export function TestPaymentHint({
  id,
  payment,
  notYet = null,
  then = "",
}: {
  id: string;
  payment: Pick<TestPayment, "plan" | "accountsState">;
  notYet?: string | null;
  then?: string;
}) {
  const { plan, accountsState } = payment;
  let text: ReactNode;
  if (accountsState === "error") text = "Your accounts could not be loaded, so no test payment can be prepared.";
  else if (!plan) text = "Looking up your accounts…";
  else if (!plan.ok)
    text = (
      <>
        {plan.message}{" "}
        <Link to="/ledger" className="font-semibold text-indigo-700 underline dark:text-indigo-300">
          Go to the Ledger
        </Link>
      </>
    );
  else if (notYet) text = notYet;
  else
    text = `Sends ${formatMoney(toDecimalString(plan.amountMinor, plan.currency), plan.currency)} from ${plan.from.name} to ${plan.to.name}: a real payment, fee included.${then ? ` ${then}` : ""}`;
  return (
    <p id={id} className={`break-words ${subtleTextClass}`}>
      {text}
    </p>
  );
}
