import { describe, expect, it } from "vitest";
import { createHttpClient } from "./client";
import { API_MESSAGES, ApiError } from "./errors";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { DocumentCheckPendingError, kycEndpoints, type CheckWait, type UploadTransport } from "./kyc";
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

function setup(
  reply: (call: RecordedCall) => Response = () => json(200, {}),
  token: string | null = "tok",
  checkWait?: CheckWait,
) {
  const { fetch, calls } = fakeFetch(reply);
  const tokens = fakeTokens(token);
  const uploads: FakeUpload[] = [];
  let announce: (upload: FakeUpload) => void = () => undefined;
  let opened = new Promise<FakeUpload>((resolve) => (announce = resolve));
  const api = kycEndpoints({
    http: createHttpClient({ baseUrl: "https://api.test", fetch, credentials: tokens.source }),
    baseUrl: "https://api.test",
    credentials: tokens.source,
    newUploadTransport: () => {
      const upload = new FakeUpload();
      uploads.push(upload);
      announce(upload);
      return upload as unknown as UploadTransport;
    },
    checkWait,
  });
  /** The next transport the client creates (a bucket upload opens it after two API calls). */
  const nextUpload = async () => {
    const upload = await opened;
    opened = new Promise<FakeUpload>((resolve) => (announce = resolve));
    return upload;
  };
  return { api, calls, tokens, uploads, nextUpload };
}

/** A CheckWait that never waits and counts its pauses. */
function instantWait(attempts: number) {
  const pauses: number[] = [];
  const wait: CheckWait = {
    intervalMs: 1_000,
    attempts,
    delay: async (ms) => {
      pauses.push(ms);
    },
  };
  return { wait, pauses };
}

const ticket = {
  url: "http://127.0.0.1:4569/kyc-documents",
  fields: { key: "u1/s1/passport/o1", "Content-Type": "image/png", Policy: "eyJ…", "X-Amz-Signature": "5f1c" },
  key: "u1/s1/passport/o1",
  expires_at: "2026-11-26T00:05:00.000Z",
};
const passportAt = (uploaded_at: string, status: string, problems: string[] = []) => ({
  data: { ...state, documents: { passport: { status, uploaded_at, verified_at: null, problems } } },
});

/** Answers presign with the ticket and each GET /status with the next of `states` (the last one repeats). */
function bucketServer(states: unknown[]) {
  let reads = 0;
  return (call: RecordedCall) => {
    if (call.url.endsWith("/uploads/presign")) return json(201, { data: ticket });
    return json(200, states[Math.min(reads++, states.length - 1)]);
  };
}

const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "passport.png", { type: "image/png" });
const state = {
  user_id: "u1",
  country: "IN",
  status: "pending",
  progress: 0,
  documents: {},
  next_steps: ["Upload documents"],
  updated_at: "2026-11-26T00:00:00.000Z",
  identity_numbers: {},
  info_request: null,
};

describe("KYC api", () => {
  it("reads countries, with the search in the query", async () => {
    const { api, calls } = setup(() =>
      json(200, {
        success: true,
        countries: [
          {
            country: "India",
            countryCode: "IN",
            flag: "🇮🇳",
            documentTypes: ["passport", "idCard"],
            popular: true,
            supportedDocuments: {},
          },
        ],
        total: 1,
      }),
    );
    expect((await api.countries("ind"))[0]).toMatchObject({ countryCode: "IN", documentTypes: ["passport", "idCard"] });
    expect(calls[0]!.url).toBe("https://api.test/api/v1/kyc/countries?search=ind");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer tok");
  });

  it("reads the state, null before any start, and refuses a reply that breaks the contract", async () => {
    expect(await setup(() => json(200, { data: state })).api.status()).toMatchObject({
      country: "IN",
      status: "pending",
    });
    expect(
      await setup(() => json(404, { message: "KYC not started", code: "kyc_not_started" })).api.status(),
    ).toBeNull();
    await expect(setup(() => json(200, { data: { status: "nonsense" } })).api.status()).rejects.toMatchObject({
      kind: "invalid-response",
    });
    // docs/product/kyc.md#messages: a reply without its data says which request it was.
    await expect(setup(() => json(200, {})).api.status()).rejects.toMatchObject({
      message: "No data received from KYC status request",
    });
    await expect(
      setup(() => json(201, { success: true })).api.start({
        country: "IN",
        name: "A",
        email: "a@b.co",
        phone: "+919876543210",
      }),
    ).rejects.toMatchObject({ message: "No data received from KYC start request" });
    await expect(
      setup(() => json(200, { data: null })).api.verifyNumber("pan", "ABCPE1234F", "IN"),
    ).rejects.toMatchObject({ message: "No data received from document verification request" });
  });

  it("verifies a number with document_number and country, under an Idempotency-Key", async () => {
    const { api, calls } = setup(() =>
      json(200, { data: { valid: true, status: "verified", masked: "XXXX XXXX 2346", progress: 25 } }),
    );
    expect(await api.verifyNumber("aadhaar", "234123412346", "IN", { idempotencyKey: "k1" })).toMatchObject({
      valid: true,
      masked: "XXXX XXXX 2346",
    });
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "https://api.test/api/v1/kyc/verify/aadhaar",
      body: { document_number: "234123412346", country: "IN" },
    });
    expect(calls[0]!.headers.get("Idempotency-Key")).toBe("k1");
    // Every other country's number goes to the route by type.
    await api.verifyNumber("us_ssn", "536-90-4399", "US");
    expect(calls[1]).toMatchObject({
      method: "POST",
      url: "https://api.test/api/v1/kyc/identity-numbers/us_ssn/verify",
      body: { document_number: "536-90-4399", country: "US" },
    });
  });

  it("says the server's message when a start is refused", async () => {
    const { api } = setup(() => json(409, { message: "User already has a KYC submission", code: "kyc_exists" }));
    await expect(
      api.start({ country: "IN", name: "Ada", email: "ada@example.com", phone: "+91 98765 43210" }),
    ).rejects.toMatchObject({ message: "User already has a KYC submission", status: 409 });
  });

  it("uploads multipart with the token, reports real progress and reads the document", async () => {
    const { api, uploads } = setup();
    const progress: number[] = [];
    const done = api.uploadDocument({
      file,
      documentType: "passport",
      onProgress: (fraction) => progress.push(fraction),
    });
    const upload = uploads[0]!;
    expect(upload.opened).toEqual(["POST", "https://api.test/api/v1/kyc/upload"]);
    expect(upload.headers.get("Authorization")).toBe("Bearer tok");
    expect(upload.body?.get("document_type")).toBe("passport");
    expect((upload.body!.get("file") as File).name).toBe("passport.png");
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
    await expect(refused).rejects.toMatchObject({
      message: "File must be JPG, JPEG, or PNG format",
      kind: "server-message",
      code: "invalid_file_type",
    });

    const expired = api.uploadDocument({ file, documentType: "passport" });
    uploads[1]!.answer(401, { message: "Invalid token" });
    await expect(expired).rejects.toMatchObject({ message: API_MESSAGES.sessionExpired });
    expect(tokens.state.cleared).toBe(1);
  });

  it("fails an upload without a token before sending, and on a network error or a cancel", async () => {
    await expect(setup(undefined, null).api.uploadDocument({ file, documentType: "passport" })).rejects.toBeInstanceOf(
      ApiError,
    );

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

  it("sends a large picture straight to the bucket: the ticket's fields then the file, real progress, then the new document's verdict", async () => {
    const { wait, pauses } = instantWait(10);
    const old = passportAt("2026-11-26T00:00:00.000Z", "rejected", ["Image is too blurry"]);
    const { api, calls, nextUpload } = setup(
      bucketServer([old, old, passportAt("2026-11-26T00:01:00.000Z", "verified")]),
      "tok",
      wait,
    );
    const progress: number[] = [];
    let checking = 0;
    const done = api.uploadDocumentViaBucket({
      file,
      documentType: "passport",
      onProgress: (fraction) => progress.push(fraction),
      onChecking: () => checking++,
    });
    const upload = await nextUpload();
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "https://api.test/api/v1/kyc/uploads/presign",
      body: { document_type: "passport", content_type: "image/png" },
    });
    expect(calls[1]).toMatchObject({ method: "GET", url: "https://api.test/api/v1/kyc/status" });
    expect(upload.opened).toEqual(["POST", ticket.url]);
    // The bucket signs the form, not a bearer token: none goes to another origin.
    expect(upload.headers.size).toBe(0);
    expect([...upload.body!.keys()]).toEqual([...Object.keys(ticket.fields), "file"]);
    expect(upload.body!.get("Policy")).toBe("eyJ…");
    expect((upload.body!.get("file") as File).name).toBe("passport.png");
    upload.progress(100, 400);
    upload.progress(400, 400);
    expect(checking).toBe(0);
    upload.answer(204, "");
    // The old rejected passport is not this upload's verdict: the wait goes on until the new one shows.
    expect(await done).toEqual({ type: "passport", status: "verified", checks: { problems: [] } });
    expect(progress).toEqual([0.25, 1]);
    expect(checking).toBe(1);
    expect(calls.filter((call) => call.url.endsWith("/status"))).toHaveLength(3);
    expect(pauses).toEqual([1_000]);
  });

  it("reports a file the bucket's checks refused as a rejected document with the refusal as its problem", async () => {
    const refusal = KYC_MESSAGES.wrongImageFormat;
    const { api, nextUpload } = setup(
      bucketServer([{ data: state }, passportAt("2026-11-26T00:01:00.000Z", "rejected", [refusal])]),
      "tok",
      instantWait(5).wait,
    );
    const done = api.uploadDocumentViaBucket({ file, documentType: "passport" });
    (await nextUpload()).answer(204, "");
    expect(await done).toEqual({ type: "passport", status: "rejected", checks: { problems: [refusal] } });
  });

  it("says the checks are still running after the bounded wait, without a verdict it has not seen", async () => {
    const { wait, pauses } = instantWait(4);
    const { api, calls, nextUpload } = setup(bucketServer([{ data: state }]), "tok", wait);
    const done = api.uploadDocumentViaBucket({ file, documentType: "passport" });
    (await nextUpload()).answer(204, "");
    await expect(done).rejects.toBeInstanceOf(DocumentCheckPendingError);
    expect(calls.filter((call) => call.url.endsWith("/status"))).toHaveLength(1 + 4);
    expect(pauses).toHaveLength(3);
  });

  it("turns the bucket's XML refusals into messages and asks for no verdict", async () => {
    const { api, calls, nextUpload } = setup(bucketServer([{ data: state }]), "tok", instantWait(3).wait);
    const tooLarge = api.uploadDocumentViaBucket({ file, documentType: "passport" });
    (await nextUpload()).answer(
      400,
      '<?xml version="1.0"?><Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>',
    );
    await expect(tooLarge).rejects.toMatchObject({
      message: KYC_MESSAGES.fileTooLarge,
      status: 400,
      code: "EntityTooLarge",
    });

    const expired = api.uploadDocumentViaBucket({ file, documentType: "passport" });
    (await nextUpload()).answer(
      403,
      "<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>",
    );
    await expect(expired).rejects.toMatchObject({
      message: "Failed to upload document: Invalid according to Policy: Policy expired.",
      code: "AccessDenied",
    });
    expect(calls.filter((call) => call.url.endsWith("/status"))).toHaveLength(2);
  });

  it("passes on a refused ticket (the API's message) and cancels a bucket upload in flight", async () => {
    const refused = setup(() => json(415, { message: KYC_MESSAGES.wrongImageFormat, code: "wrong_image_format" }));
    await expect(refused.api.uploadDocumentViaBucket({ file, documentType: "passport" })).rejects.toMatchObject({
      message: KYC_MESSAGES.wrongImageFormat,
      code: "wrong_image_format",
    });
    expect(refused.uploads).toHaveLength(0);

    const { api, nextUpload } = setup(bucketServer([{ data: state }]), "tok", instantWait(3).wait);
    const controller = new AbortController();
    const cancelled = api.uploadDocumentViaBucket({ file, documentType: "passport", signal: controller.signal });
    const upload = await nextUpload();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: "AbortError" });
    expect(upload.aborted).toBe(true);
  });
});
