import { KycDashboard } from "../kyc-review/KycDashboard";

/** /kyc/dashboard: KYC Management, the reviewers' back office (guarded; admins only inside). */
export default function KycDashboardPage() {
  return <KycDashboard />;
}
