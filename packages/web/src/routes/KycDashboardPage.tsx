import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function KycDashboardPage() {
  return (
    <PlaceholderScreen
      title="KYC Management"
      product="Identity review"
      willDo="reviewers will search and filter submissions, open a customer's risk assessment and documents, and approve or reject them with notes."
    />
  );
}
