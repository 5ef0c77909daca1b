import { OpsConsole } from "../ops/OpsConsole";

/** /ops: the ops console (guarded; administrators only inside). */
export default function OpsPage() {
  return <OpsConsole />;
}
