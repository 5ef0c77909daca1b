import { UPLOAD_MAX_BYTES } from "@fintech/core/reconciliation/model";
import { describe, expect, it } from "vitest";
import { BAND_FILL, varianceBand, varianceBarPercent, varianceText } from "../rails/format";
import {
  countText,
  csvFileProblem,
  fileTiles,
  looksLikeText,
  previousDay,
  RECON_SCREEN_MESSAGES,
  utcTime,
} from "./format";

const text = (value: string) => new TextEncoder().encode(value);
const csv = { name: "ach-2026-11-27.csv", type: "text/csv", size: 120, head: text("rail,reference,amount\n") };

describe("the upload's CSV check, before a byte leaves", () => {
  it("accepts CSV text whatever type the browser gave it (or none)", () => {
    for (const type of ["text/csv", "", "application/vnd.ms-excel", "text/plain", "TEXT/CSV"]) {
      expect(csvFileProblem({ ...csv, type }), type).toBeNull();
    }
    expect(csvFileProblem({ ...csv, name: "ACH.CSV" })).toBeNull();
  });

  it("refuses another extension or type, an empty or oversized file, and binary content named .csv", () => {
    expect(csvFileProblem({ ...csv, name: "settlement.xlsx" })).toBe(RECON_SCREEN_MESSAGES.notCsv);
    expect(csvFileProblem({ ...csv, name: "settlement.pdf", type: "application/pdf" })).toBe(
      RECON_SCREEN_MESSAGES.notCsv,
    );
    expect(csvFileProblem({ ...csv, type: "image/png" })).toBe(RECON_SCREEN_MESSAGES.notCsv);
    expect(csvFileProblem({ ...csv, size: 0 })).toBe(RECON_SCREEN_MESSAGES.emptyFile);
    expect(csvFileProblem({ ...csv, size: UPLOAD_MAX_BYTES + 1 })).toBe(RECON_SCREEN_MESSAGES.tooLarge);
    expect(csvFileProblem({ ...csv, size: UPLOAD_MAX_BYTES })).toBeNull();
    expect(csvFileProblem({ ...csv, name: `${"a".repeat(200)}.csv` })).toBe(RECON_SCREEN_MESSAGES.nameTooLong);
    expect(csvFileProblem({ ...csv, head: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]) })).toBe(
      RECON_SCREEN_MESSAGES.notText,
    );
    expect(csvFileProblem({ ...csv, head: new Uint8Array([0x50, 0x4b, 0x03, 0x04]) })).toBe(
      RECON_SCREEN_MESSAGES.notText,
    );
  });

  it("tells text from binary by NUL bytes and common signatures", () => {
    expect(looksLikeText(text("a,b\n1,2\n"))).toBe(true);
    expect(looksLikeText(new Uint8Array([0x61, 0x00, 0x62]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe(false);
    // UTF-8 with a byte order mark is still text.
    expect(looksLikeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x72]))).toBe(true);
  });
});

describe("variance bands and bar (docs/product/payment-rails.md#colour-bands)", () => {
  it("green under 0.1, yellow under 1, red otherwise", () => {
    expect(varianceBand(0)).toBe("green");
    expect(varianceBand(0.0999)).toBe("green");
    expect(varianceBand(0.1)).toBe("yellow");
    expect(varianceBand(0.999)).toBe("yellow");
    expect(varianceBand(1)).toBe("red");
    expect(varianceBand(37)).toBe("red");
    expect(varianceBand(Number.NaN)).toBe("red");
    expect(BAND_FILL[varianceBand(0.5)]).toContain("amber");
  });

  it("the bar is ten times the variance wide, at most 100", () => {
    expect(varianceBarPercent(0)).toBe(0);
    expect(varianceBarPercent(0.05)).toBe(0.5);
    expect(varianceBarPercent(5)).toBe(50);
    expect(varianceBarPercent(10)).toBe(100);
    expect(varianceBarPercent(80)).toBe(100);
    expect(varianceBarPercent(-1)).toBe(0);
    expect(varianceText(0.12345)).toBe("0.123%");
    expect(varianceText(0)).toBe("0%");
  });
});

describe("the console's tiles and texts", () => {
  it("counts files imported today (UTC) and per status", () => {
    const files = [
      { importedAt: "2026-11-28T23:59:59.000Z", status: "success" as const },
      { importedAt: "2026-11-29T00:00:00.000Z", status: "error" as const },
      { importedAt: "2026-11-29T10:00:00.000Z", status: "warning" as const },
      { importedAt: "2026-11-29T11:00:00.000Z", status: "success" as const },
    ];
    expect(fileTiles(files, "2026-11-29")).toEqual({
      importedToday: 3,
      autoReconciled: 2,
      requiresReview: 1,
      warnings: 1,
    });
    expect(countText(25, true)).toBe("25+");
    expect(countText(3, false)).toBe("3");
  });

  it("steps back a day across months and years, and writes times in UTC", () => {
    expect(previousDay("2026-03-01")).toBe("2026-02-28");
    expect(previousDay("2027-01-01")).toBe("2026-12-31");
    expect(utcTime("2026-11-27T10:15:42.000Z")).toBe("2026-11-27 10:15 UTC");
    expect(utcTime("not a time")).toBe("not a time");
  });
});
