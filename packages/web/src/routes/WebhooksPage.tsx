import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function WebhooksPage() {
  return (
    <PlaceholderScreen
      title="Webhooks"
      product="Webhooks"
      willDo="register endpoints, reveal and rotate their signing secrets, and read, replay and test their deliveries."
    />
  );
}
