import { WebhooksScreen } from "../developers/webhooks/WebhooksScreen";

/** /developers/webhooks: the signed-in user's webhook endpoints and their deliveries (guarded; see routeTable). */
export default function WebhooksPage() {
  return <WebhooksScreen />;
}
