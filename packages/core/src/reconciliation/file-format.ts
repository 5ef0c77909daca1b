import { CURRENCIES, fromDecimalString, toDecimalString, type Currency } from "../money/model";
import {
  MAX_REFERENCE_LENGTH,
  SETTLEMENT_COLUMNS,
  SETTLEMENT_LINE_TYPES,
  type SettlementColumn,
  type SettlementLineType,
} from "./model";

/**
 * One settlement file line (docs/money-operations.md#settlement-files), read and written here
 * only: the parser (reconcile.ts), the generator (generator.ts) and the bench share it.
 */

export interface SettlementLine {
  rail: string;
  reference: string;
  /** The line's amount in minor units, as written (never negative): its type gives the direction. */
  amountMinor: number;
  currency: Currency;
  feeMinor: number;
  type: SettlementLineType;
  settledAt: string;
}

export type ParsedLine = { ok: true; line: SettlementLine } | { ok: false; reason: string; reference: string };

/** The header must be exactly the documented columns (case and surrounding spaces aside). */
export function isSettlementHeader(header: readonly string[]): boolean {
  return (
    header.length === SETTLEMENT_COLUMNS.length &&
    header.every((column, index) => column.trim().toLowerCase() === SETTLEMENT_COLUMNS[index])
  );
}

/** A decimal amount of the currency, zero or more, in plain notation: exactly, or null. */
function amountOf(text: string, currency: Currency): number | null {
  const digits = CURRENCIES[currency];
  const pattern = digits === 0 ? /^\d{1,15}$/ : new RegExp(`^\\d{1,15}(?:\\.\\d{1,${digits}})?$`);
  if (!pattern.test(text)) return null;
  const minor = fromDecimalString(text, currency);
  return Number.isSafeInteger(minor) ? minor : null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const REFERENCE = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_REFERENCE_LENGTH}}$`);

/** Reads one data record; a line that does not follow the layout says why (it is then a break). */
export function parseSettlementRecord(record: readonly string[]): ParsedLine {
  const field = (column: SettlementColumn) => (record[SETTLEMENT_COLUMNS.indexOf(column)] ?? "").trim();
  const reference = field("reference").slice(0, MAX_REFERENCE_LENGTH);
  const bad = (reason: string): ParsedLine => ({ ok: false, reason, reference });
  if (record.length !== SETTLEMENT_COLUMNS.length) return bad(`expected ${SETTLEMENT_COLUMNS.length} columns`);
  const currency = field("currency").toUpperCase();
  if (!(currency in CURRENCIES)) return bad("unknown currency");
  const type = field("type").toLowerCase();
  if (!(SETTLEMENT_LINE_TYPES as readonly string[]).includes(type)) return bad("unknown type");
  if (type !== "fee" && !REFERENCE.test(field("reference"))) return bad("invalid reference");
  const amountMinor = amountOf(field("amount"), currency as Currency);
  if (amountMinor === null) return bad("invalid amount");
  const feeText = field("fee");
  const feeMinor = feeText === "" ? 0 : amountOf(feeText, currency as Currency);
  if (feeMinor === null) return bad("invalid fee");
  const settledAt = field("settled_at");
  if (!ISO_INSTANT.test(settledAt) || Number.isNaN(Date.parse(settledAt))) return bad("invalid settled_at");
  return {
    ok: true,
    line: {
      rail: field("rail"),
      reference: field("reference"),
      amountMinor,
      currency: currency as Currency,
      feeMinor,
      type: type as SettlementLineType,
      settledAt: new Date(settledAt).toISOString(),
    },
  };
}

/**
 * The line's effect on what the rail settled, signed: a payment paid out (+), a refund or a
 * chargeback returned (-); a fee line is a charge and settles no payment (0).
 */
export function signedAmount(line: Pick<SettlementLine, "type" | "amountMinor">): number {
  if (line.type === "payment") return line.amountMinor;
  if (line.type === "fee") return 0;
  return -line.amountMinor;
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** One line as a CSV row (no line break). */
export function formatSettlementLine(line: SettlementLine): string {
  return [
    line.rail,
    line.reference,
    toDecimalString(line.amountMinor, line.currency),
    line.currency,
    toDecimalString(line.feeMinor, line.currency),
    line.type,
    line.settledAt,
  ]
    .map(csvField)
    .join(",");
}

export { csvField };
