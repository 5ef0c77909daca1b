/** Key formats of the rails domain; nothing else builds these keys. */

const SEQ_DIGITS = 12;
const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

/** One rail: its current state. `railId` must match RAIL_ID_PATTERN (model.ts) before it gets here. */
export const railKey = (railId: string) => ({ pk: `RAIL#${railId}`, sk: "META" });

/** A rail's change history: one item per admin change, by the version it produced. */
export const RAIL_CHANGE_PREFIX = "CHG#";
export const railChangeKey = (railId: string, version: number) => ({ pk: `RAIL#${railId}`, sk: `${RAIL_CHANGE_PREFIX}${padSeq(version)}` });
export const railPartition = (railId: string) => `RAIL#${railId}`;

/**
 * The list partition: one registry item naming every rail id in console order. Written with the
 * seed in one transaction, read strongly consistently, so a list is never missing a seeded rail
 * (a GSI would be eventually consistent right after the seed).
 */
export const RAILS_PARTITION = "RAILS";
export const railRegistryKey = () => ({ pk: RAILS_PARTITION, sk: "REGISTRY" });
