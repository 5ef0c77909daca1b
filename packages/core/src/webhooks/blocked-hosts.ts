/**
 * Host names a webhook may never target, whatever they resolve to (docs/webhooks.md#target-safety-ssrf):
 * the cloud providers' instance-metadata services and the names of private DNS zones. Addresses
 * are checked by range in ssrf.ts; these names are refused before any lookup, so a resolver that
 * answers them with a public address cannot open a way in. Add a provider's name here.
 */
export const BLOCKED_HOST_NAMES: readonly string[] = [
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
];

/** Suffixes of private zones: every name under them is internal by definition. */
export const BLOCKED_HOST_SUFFIXES: readonly string[] = [".internal", ".local", ".localdomain", ".home.arpa"];
