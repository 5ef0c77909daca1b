import { ResetPasswordScreen } from "../account/ResetPasswordScreen";

/** /reset-password: where a password reset link leads (open: the link's token is the proof). */
export default function ResetPasswordPage() {
  return <ResetPasswordScreen />;
}
