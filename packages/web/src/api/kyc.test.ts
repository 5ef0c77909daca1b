import { describe, expect, it } from "vitest";
import { createHttpClient } from "./client";
import { API_MESSAGES, ApiError } from "./errors";
import { kycEndpoints, type UploadTransport } from "./kyc";
import { fakeFetch, fakeTokens, json, type RecordedCall } from "./testing";

/** A stand-in XMLHttpRequest: records what was sent, then answers as the test says. */
class FakeUpload {
  opened: [string, string] | null = null;
  headers = new Map<string, string>();
  body: FormData | null = null;
  aborted = false;
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === "string" ? body : JSON.stringify(body);
    this.onload?.();
  }
}

function setup(reply: (call: RecordedCall) => Response = () => json(200, {}), token: string | null = "tok") {
  const { fetch, calls } = fakeFetch(reply);
  const tokens = fakeTokens(token);
  const uploads: FakeUpload[] = [];
  const api = kycEndpoints({
    http: createHttpClient({ baseUrl: "https://api.test", fetch, credentials: tokens.source }),
    baseUrl: "https://api.test",
    credentials: tokens.source,
    newUploadTransport: () => {
      const upload = new FakeUpload();
      uploads.push(upload);
      return upload as unknown as UploadTransport;
    },
  });
  return { api, calls, tokens, uploads };
}

const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "passport.png", { type: "image/png" });
const state = { user_id: "u1", country: "IN", status: "pending", progress: 0, documents: {}, next_steps: ["Upload documents"], updated_at: "2026-11-26T00:00:00.000Z", identity_numbers: {}, info_request: null };

describe("KYC api", () => {
  it("reads countries, with the search in the query", async () => {
    const { api, calls } = setup(() => json(200, { success: true, countries: [{ country: "India", countryCode: "IN", flag: "🇮🇳", documentTypes: ["passport", "idCard"], popular: true, supportedDocuments: {} }], total: 1 }));
    expect((await api.countries("ind"))[0]).toMatchObject({ countryCode: "IN", documentTypes: ["passport", "idCard"] });
    expect(calls[0]!.url).toBe("https://api.test/api/v1/kyc/countries?search=ind");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer tok");
  });

  it("reads the state, null before any start, and refuses a reply that breaks the contract", async () => {
    expect(await setup(() => json(200, { data: state })).api.status()).toMatchObject({ country: "IN", status: "pending" });
    expect(await setup(() => json(404, { message: "KYC not started", code: "kyc_not_started" })).api.status()).toBeNull();
    await expect(setup(() => json(200, { data: { status: "nonsense" } })).api.status()).rejects.toMatchObject({ kind: "invalid-response" });
    // Spec 001 §8: a reply without its data says which request it was.
    await expect(setup(() => json(200, {})).api.status()).rejects.toMatchObject({ message: "No data received from KYC status request" });
    await expect(setup(() => json(201, { success: true })).api.start({ country: "IN", name: "A", email: "a@b.co", phone: "+919876543210" })).rejects.toMatchObject({ message: "No data received from KYC start request" });
    await expect(setup(() => json(200, { data: null })).api.verifyNumber("pan", "ABCPE1234F", "IN")).rejects.toMatchObject({ message: "No data received from document verification request" });
  });

  it("verifies a number with document_number and country, under an Idempotency-Key", async () => {
    const { api, calls } = setup(() => json(200, { data: { valid: true, status: "verified", masked: "XXXX XXXX 2346", progress: 25 } }));
    expect(await api.verifyNumber("aadhaar", "234123412346", "IN", { idempotencyKey: "k1" })).toMatchObject({ valid: true, masked: "XXXX XXXX 2346" });
    expect(calls[0]).toMatchObject({ method: "POST", url: "https://api.test/api/v1/kyc/verify/aadhaar", body: { document_number: "234123412346", country: "IN" } });
    expect(calls[0]!.headers.get("Idempotency-Key")).toBe("k1");
  });

  it("says the server's message when a start is refused", async () => {
    const { api } = setup(() => json(409, { message: "User already has a KYC submission", code: "kyc_exists" }));
    await expect(api.start({ country: "IN", name: "Ada", email: "ada@example.com", phone: "+91 98765 43210" })).rejects.toMatchObject({ message: "User already has a KYC submission", status: 409 });
  });

  it("uploads multipart with the token, reports real progress and reads the document", async () => {
    const { api, uploads } = setup();
    const progress: number[] = [];
    const done = api.uploadDocument({ file, documentType: "passport", onProgress: (fraction) => progress.push(fraction) });
    const upload = uploads[0]!;
    expect(upload.opened).toEqual(["POST", "https://api.test/api/v1/kyc/upload"]);
    expect(upload.headers.get("Authorization")).toBe("Bearer tok");
    expect(upload.body?.get("document_type")).toBe("passport");
    expect((upload.body?.get("file") as File).name).toBe("passport.png");
    upload.progress(50, 200);
    upload.progress(200, 200);
    upload.answer(201, { data: { type: "passport", status: "verified", checks: { passed: true, problems: [] } } });
    expect(await done).toMatchObject({ type: "passport", status: "verified" });
    expect(progress).toEqual([0.25, 1]);
  });

  it("turns a refused upload into the server's message; a 401 ends the session", async () => {
    const { api, uploads, tokens } = setup();
    const refused = api.uploadDocument({ file, documentType: "passport" });
    uploads[0]!.answer(400, { message: "File must be JPG, JPEG, or PNG format", code: "invalid_file_type" });
    await expect(refused).rejects.toMatchObject({ message: "File must be JPG, JPEG, or PNG format", kind: "server-message", code: "invalid_file_type" });

    const expired = api.uploadDocument({ file, documentType: "passport" });
    uploads[1]!.answer(401, { message: "Invalid token" });
    await expect(expired).rejects.toMatchObject({ message: API_MESSAGES.sessionExpired });
    expect(tokens.state.cleared).toBe(1);
  });

  it("fails an upload without a token before sending, and on a network error or a cancel", async () => {
    await expect(setup(undefined, null).api.uploadDocument({ file, documentType: "passport" })).rejects.toBeInstanceOf(ApiError);

    const { api, uploads } = setup();
    const lost = api.uploadDocument({ file, documentType: "passport" });
    uploads[0]!.onerror?.();
    await expect(lost).rejects.toMatchObject({ kind: "network" });

    const controller = new AbortController();
    const cancelled = api.uploadDocument({ file, documentType: "passport", signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: "AbortError" });
    expect(uploads[1]!.aborted).toBe(true);
  });
});
