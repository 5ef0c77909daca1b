import { KycWizard } from "../kyc/KycWizard";

/** /kyc: the KYC wizard (guarded; see routeTable). */
export default function KycPage() {
  return <KycWizard />;
}
