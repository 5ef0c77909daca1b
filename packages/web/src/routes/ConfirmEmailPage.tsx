import { ConfirmEmailScreen } from "../account/ConfirmEmailScreen";

/** /confirm-email: where an email-change confirmation link leads (open: the link's token is the proof). */
export default function ConfirmEmailPage() {
  return <ConfirmEmailScreen />;
}
