import { ComplianceConsole } from "../compliance/ComplianceConsole";

/** /compliance: CTR, SAR candidates with their cases, and tax (guarded; administrators only inside). */
export default function CompliancePage() {
  return <ComplianceConsole />;
}
