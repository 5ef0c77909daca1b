/**
 * The developer hub's destinations (docs/product/developer-tools.md#developer-hub): where each goes
 * and what it is for.
 */
export interface HubDestination {
  to: string;
  title: string;
  purpose: string;
  icon: string;
  /** Needs a signed-in user (the route is guarded). */
  signInRequired: boolean;
}

export const hubDestinations: readonly HubDestination[] = [
  {
    to: "/developers/quickstart",
    title: "Quickstart",
    icon: "🏁",
    purpose: "From sign-up to your first transfer with an API key, step by step, with curl and TypeScript.",
    signInRequired: false,
  },
  {
    to: "/developers/docs",
    title: "Documentation",
    icon: "📚",
    purpose: "Guides to authentication, the ledger API and real-time streams, searchable, with code to copy.",
    signInRequired: false,
  },
  {
    to: "/developers/api-explorer",
    title: "API Explorer",
    icon: "🧭",
    purpose: "Every endpoint from the OpenAPI document, with examples, curl, and Try It against the live API.",
    signInRequired: false,
  },
  {
    to: "/developers/examples",
    title: "Examples",
    icon: "🧪",
    purpose: "Complete programs: idempotent retries, paging, CSV export, streaming with resume and error handling.",
    signInRequired: false,
  },
  {
    to: "/developers/api-keys",
    title: "API keys",
    icon: "🔑",
    purpose: "Create, name and revoke the keys your scripts and servers use (fpk_...). Sign-in required.",
    signInRequired: true,
  },
  {
    to: "/developers/webhooks",
    title: "Webhooks",
    icon: "📬",
    purpose:
      "Signed deliveries of your ledger, KYC and payment events to your server, with a log, replay and test send. Sign-in required.",
    signInRequired: true,
  },
];
