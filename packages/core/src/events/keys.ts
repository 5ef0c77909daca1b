/** Key formats of the events domain (live streams); nothing else builds these keys. */

/**
 * The open-stream leases of one user (stream-leases.ts): one item per slot. The Feeds function,
 * whose role otherwise only reads, may write exactly the items whose partition key starts with
 * this prefix (stacks/), so the prefix is part of the contract with the stack.
 */
export const STREAM_LEASE_PREFIX = "STREAMLEASE#";
export const streamLeasePartition = (userId: string) => `${STREAM_LEASE_PREFIX}${userId}`;
export const streamLeaseKey = (userId: string, slot: number) => ({
  pk: streamLeasePartition(userId),
  sk: `SLOT#${slot}`,
});
