import { createHash } from "node:crypto";

/**
 * Key formats of the whole-ledger integrity job (integrity-jobs.ts, integrity-steps.ts); nothing
 * else builds these keys.
 */

export const integrityJobKey = (jobId: string) => ({ pk: `INTEGRITY#${jobId}`, sk: "JOB" });

/** Every job on one index partition, newest last: the latest job is one query. */
export const INTEGRITY_JOBS_PARTITION = "INTEGRITY#JOBS";
export const integrityJobsIndex = (startedAt: string, jobId: string) => ({
  gsi1pk: INTEGRITY_JOBS_PARTITION,
  gsi1sk: `${startedAt}#${jobId}`,
});

/** The job that holds the whole ledger's check now: at most one, claimed with a conditional put. */
export const integrityCurrentKey = () => ({ pk: "INTEGRITY#CURRENT", sk: "LEDGER" });

/** The newest job that finished with a result, for the read that must not scan. */
export const integrityLatestResultKey = () => ({ pk: "INTEGRITY#LATEST", sk: "RESULT" });

/**
 * A job's per-account sums (what the journals say each account's totals are, and the account
 * itself) are spread over this many partitions by account id, so the scan's writes never pile
 * onto one partition; the comparison phase reads the shards one after the other.
 */
export const INTEGRITY_ACCOUNT_SHARDS = 8;

export const integrityAccountShard = (accountId: string): number =>
  createHash("sha256").update(accountId).digest().readUInt32BE(0) % INTEGRITY_ACCOUNT_SHARDS;

export const integrityAccountsPartition = (jobId: string, shard: number) => `INTEGRITY#${jobId}#ACCTS#${shard}`;

export const integrityAccountKey = (jobId: string, accountId: string) => ({
  pk: integrityAccountsPartition(jobId, integrityAccountShard(accountId)),
  sk: accountId,
});
