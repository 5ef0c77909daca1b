import { randomUUID } from "node:crypto";

/** Identifiers are UUIDs: unguessable, so knowing one id never reveals another's. */
export const newId = (): string => randomUUID();
