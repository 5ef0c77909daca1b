import type { SettlementFile, UploadGrant } from "@fintech/core/reconciliation/model";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { postToBucket, type ReconciliationApi, type UploadTransport } from "./api";
import { ReconcilePendingError, uploadSettlementFile, type ReconcileWait, type UploadPhase } from "./upload";

const grant: UploadGrant = {
  url: "https://bucket.example/settlements",
  fields: { key: "incoming/ach/2026-11-27-abc.csv", policy: "p", "x-amz-signature": "s" },
  key: "incoming/ach/2026-11-27-abc.csv",
  expiresAt: "2026-11-29T10:05:00.000Z",
  maxBytes: 1000,
};
const fileFor = (key: string) => ({ key, filename: "ach.csv", statusLabel: "Auto-Reconciled" }) as SettlementFile;
const noWait: ReconcileWait = { intervalMs: 1, attempts: 3, delay: async () => {} };
const csvFile = () => new File(["rail,reference\n"], "ach.csv", { type: "text/csv" });
/** The content's id: rail, day and the first 32 hex digits of its SHA-256. */
const contentId = "ach_2026-11-27_537ff119099c2b303fc7ddf9fb90a4ca";
const notFound = () => new ApiError("Settlement file not found", "http-status", 404, "file_not_found");

/** An API that answers 404 for the file until the `appearsOn`-th ask, then the file recorded under `recordedKey`. */
function fakeApi(appearsOn: number, recordedKey = grant.key) {
  const calls: string[] = [];
  let asks = 0;
  const api: Pick<ReconciliationApi, "uploadGrant" | "sendFile" | "file"> = {
    async uploadGrant(input) {
      calls.push(`grant ${input.railId} ${input.date} ${input.filename} ${input.size} ${input.sha256}`);
      return grant;
    },
    async sendFile(sent, _file, onProgress) {
      calls.push(`send ${sent.key}`);
      onProgress?.(0.5);
      onProgress?.(1);
    },
    async file(id) {
      asks += 1;
      calls.push(`file ${id}`);
      if (asks < appearsOn) throw notFound();
      return fileFor(recordedKey);
    },
  };
  return { api, calls };
}

describe("uploading a settlement file", () => {
  it("asks for a grant, sends the bytes with progress, then waits for the file its content names", async () => {
    const { api, calls } = fakeApi(2);
    const phases: UploadPhase[] = [];
    const progress: number[] = [];
    const result = await uploadSettlementFile(
      api,
      {
        railId: "ach",
        date: "2026-11-27",
        file: csvFile(),
        onPhase: (phase) => phases.push(phase),
        onProgress: (f) => progress.push(f),
      },
      noWait,
    );
    expect(result).toEqual({ file: fileFor(grant.key), recordedBefore: false });
    expect(phases).toEqual(["signing", "sending", "reconciling"]);
    expect(progress).toEqual([0.5, 1]);
    expect(calls).toEqual([
      // The content's SHA-256 (base64) goes with the request: the signed policy carries it.
      `grant ach 2026-11-27 ach.csv ${csvFile().size} U3/xGQmcKzA/x935+5CkytU8+k6Q4dstMfhgiSlERGI=`,
      `send ${grant.key}`,
      `file ${contentId}`,
      `file ${contentId}`,
    ]);
  });

  it("says so when the same content was recorded before under another key", async () => {
    const { api } = fakeApi(1, "incoming/ach/2026-11-27.csv");
    const result = await uploadSettlementFile(api, { railId: "ach", date: "2026-11-27", file: csvFile() }, noWait);
    expect(result.recordedBefore).toBe(true);
    expect(result.file.key).toBe("incoming/ach/2026-11-27.csv");
  });

  it("gives up after the wait with a pending error naming the key; another error stops the wait", async () => {
    await expect(
      uploadSettlementFile(fakeApi(99).api, { railId: "ach", date: "2026-11-27", file: csvFile() }, noWait),
    ).rejects.toBeInstanceOf(ReconcilePendingError);
    const { api } = fakeApi(99);
    api.file = async () => {
      throw new ApiError("Forbidden", "http-status", 403, "admin_required");
    };
    await expect(
      uploadSettlementFile(api, { railId: "ach", date: "2026-11-27", file: csvFile() }, noWait),
    ).rejects.toMatchObject({ status: 403 });
  });
});

/** A stand-in XMLHttpRequest: records what was sent, then answers as the test says. */
function fakeTransport(answer: (request: FakeRequest) => void) {
  const request = {
    sent: null as FormData | null,
    opened: "",
    status: 0,
    responseText: "",
    upload: { onprogress: null as ((event: ProgressEvent) => void) | null },
    onload: null as (() => void) | null,
    onerror: null as (() => void) | null,
    onabort: null as (() => void) | null,
    open(method: string, url: string) {
      this.opened = `${method} ${url}`;
    },
    send(body: FormData) {
      this.sent = body;
      answer(this);
    },
    abort() {
      this.onabort?.();
    },
  };
  return request;
}
type FakeRequest = ReturnType<typeof fakeTransport>;
const asTransport = (request: FakeRequest) => request as unknown as UploadTransport;

describe("the presigned POST to the bucket", () => {
  it("posts the grant's fields first and the file last, reporting progress", async () => {
    const progress: number[] = [];
    const request = fakeTransport((r) => {
      r.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      r.status = 204;
      r.onload?.();
    });
    await postToBucket(asTransport(request), grant, csvFile(), (fraction) => progress.push(fraction));
    expect(request.opened).toBe(`POST ${grant.url}`);
    expect([...request.sent!.keys()]).toEqual(["key", "policy", "x-amz-signature", "file"]);
    expect(progress).toEqual([0.5, 1]);
  });

  it("turns S3's XML refusal into a readable error, and a cancel into an AbortError", async () => {
    const refused = fakeTransport((r) => {
      r.status = 400;
      r.responseText = "<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds</Message></Error>";
      r.onload?.();
    });
    await expect(postToBucket(asTransport(refused), grant, csvFile())).rejects.toThrow(ApiError);
    const controller = new AbortController();
    const hanging = fakeTransport(() => controller.abort());
    await expect(
      postToBucket(asTransport(hanging), grant, csvFile(), undefined, controller.signal),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
