import { VerifyEmailScreen } from "../account/VerifyEmailScreen";

/** /verify-email: where the sign-up verification link leads (open: the link's token is the proof). */
export default function VerifyEmailPage() {
  return <VerifyEmailScreen />;
}
