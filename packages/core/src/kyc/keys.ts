/** Key formats of the KYC domain; nothing else builds these keys. */

const SEQ_DIGITS = 12;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

export const submissionKey = (submissionId: string) => ({ pk: `KYC#${submissionId}`, sk: "SUB" });
/**
 * Every submission, newest first, for the reviewer's list. One index partition for all of KYC:
 * at KYC volumes (a write per applicant step) it stays far below a partition's 1,000 writes/s.
 */
export const SUBMISSIONS_PARTITION = "KYC#SUBMISSIONS";
export const submissionsIndex = (submittedAt: string, submissionId: string) => ({
  gsi1pk: SUBMISSIONS_PARTITION,
  gsi1sk: `${submittedAt}#${submissionId}`,
});
/** The user's current submission: one per user (claimed conditionally). */
export const activeSubmissionKey = (userId: string) => ({ pk: `USER#${userId}`, sk: "KYC#ACTIVE" });

/** A submission's history: its outbox (the KYC stream) and its audit trail. */
export const HISTORY_PREFIX = "EV#";
export const historyKey = (submissionId: string, seq: number) => ({ pk: `KYC#${submissionId}`, sk: `${HISTORY_PREFIX}${padSeq(seq)}` });
export const kycFeedPartition = (userId: string) => `FEED#kyc#${userId}`;
export const historyFeedIndex = (userId: string, committedAt: string, submissionId: string, seq: number) => ({
  gsi2pk: kycFeedPartition(userId),
  gsi2sk: `${committedAt}#${submissionId}#${padSeq(seq)}`,
});

/** Who holds an identity number (by keyed hash): the same number on two users is a risk flag. */
export const identityNumberClaimKey = (type: string, numberHash: string, userId: string) => ({
  pk: `KYCNUM#${type}#${numberHash}`,
  sk: `USER#${userId}`,
});
export const identityNumberClaimPartition = (type: string, numberHash: string) => `KYCNUM#${type}#${numberHash}`;
