/** Key formats of the KYC domain; nothing else builds these keys. */

const SEQ_DIGITS = 12;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

export const submissionKey = (submissionId: string) => ({ pk: `KYC#${submissionId}`, sk: "SUB" });
/** The profile a submission was created from (POST /v1/kyc/profiles): its id is the submission's. */
export const profileKey = (submissionId: string) => ({ pk: `KYC#${submissionId}`, sk: "PROFILE" });
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
export const historyKey = (submissionId: string, seq: number) => ({
  pk: `KYC#${submissionId}`,
  sk: `${HISTORY_PREFIX}${padSeq(seq)}`,
});
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

/**
 * Perceptual hashes of document images, split in 4 bands of 16 bits: two hashes within Hamming
 * distance 3 share at least one band exactly (pigeonhole), so a near-duplicate is found by 4
 * Queries instead of a scan. One item per band per document.
 */
export const IMAGE_HASH_BANDS = 4;
export const imageHashBandPartition = (band: number, bandHex: string) => `KYCIMG#${band}#${bandHex}`;
export const imageHashBandKey = (
  band: number,
  bandHex: string,
  userId: string,
  submissionId: string,
  documentType: string,
) => ({
  pk: imageHashBandPartition(band, bandHex),
  sk: `USER#${userId}#${submissionId}#${documentType}`,
});

/** Starts per origin (client IP, e-mail domain, device), newest last, for velocity rules. */
export type VelocityKind = "ip" | "email_domain" | "device";
export const velocityPartition = (kind: VelocityKind, value: string) => `KYCVEL#${kind}#${value.toLowerCase()}`;
export const velocityKey = (kind: VelocityKind, value: string, at: string, submissionId: string) => ({
  pk: velocityPartition(kind, value),
  sk: `${at}#${submissionId}`,
});

/** Risk rule sets: immutable published versions, one editable draft, and the pointer to the live version. */
export const RULES_PARTITION = "KYCRULES";
export const ruleSetVersionKey = (version: number) => ({ pk: RULES_PARTITION, sk: `V#${padSeq(version)}` });
export const RULE_SET_VERSION_PREFIX = "V#";
export const ruleSetDraftKey = () => ({ pk: RULES_PARTITION, sk: "DRAFT" });
export const publishedRuleSetKey = () => ({ pk: RULES_PARTITION, sk: "PUBLISHED" });

/** Watchlists (sanctions/PEP) uploaded as CSV: a list header and its entries under one version. */
export const WATCHLIST_PARTITION = "KYCWATCH";
export const WATCHLIST_VERSION_PREFIX = "V#";
export const watchlistVersionKey = (version: number) => ({
  pk: WATCHLIST_PARTITION,
  sk: `${WATCHLIST_VERSION_PREFIX}${padSeq(version)}`,
});
export const currentWatchlistKey = () => ({ pk: WATCHLIST_PARTITION, sk: "CURRENT" });
export const watchlistEntriesPartition = (version: number) => `KYCWATCH#${padSeq(version)}`;
export const watchlistEntryKey = (version: number, index: number) => ({
  pk: watchlistEntriesPartition(version),
  sk: `E#${padSeq(index)}`,
});

/**
 * One item per KYC object whose upload was recorded (direct upload, presigned POST or Didit-style
 * verification), written in the same transaction as the record: a second delivery of the same S3
 * ObjectCreated event finds it and changes nothing.
 */
export const documentObjectRecordKey = (objectKey: string) => ({ pk: `KYCOBJ#${objectKey}`, sk: "RECORDED" });
/** The presign ticket of one object key: the only object the S3 ObjectCreated handler may attach under that key. */
export const uploadTicketKey = (objectKey: string) => ({ pk: `KYCOBJ#${objectKey}`, sk: "TICKET" });
/** The lease of the one upload of a submission being checked and recorded at a time. */
export const uploadLeaseKey = (submissionId: string) => ({ pk: `KYCUPLOAD#${submissionId}`, sk: "LEASE" });
