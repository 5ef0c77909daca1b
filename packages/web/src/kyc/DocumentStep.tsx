import { useEffect, useRef, useState, type DragEvent } from "react";
import { KYC_MESSAGES, type DocumentStatus, type DocumentType } from "@fintech/core/kyc/model";
import { ApiError } from "../api/errors";
import {
  DocumentCheckPendingError,
  KYC_SERVICE_MESSAGES,
  kycApi,
  type KycState,
  type UploadedDocument,
} from "../api/kyc";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { subtleTextClass } from "../ledger/ui";
import { notify, showToast } from "../toast/notify";
import { ACCEPTED_FILES, checkFile, formatFileSize } from "./fileChecks";
import {
  documentFailedToast,
  documentFailedToastId,
  documentTypeLabel,
  KYC_TOAST_MS,
  KYC_UI_MESSAGES,
} from "./live/events";
import { documentLabel } from "./steps";
import { BulletList, Notice, ProgressBar } from "./ui";
import { uploadPathFor } from "./uploadPath";

/** docs/product/kyc.md#document-step: what a good photo of a document looks like. */
export const DOCUMENT_REQUIREMENTS = [
  "Clear, readable text",
  "All four corners visible",
  "No glare or shadows",
  "The original document, not a photocopy",
] as const;

const FILE_MESSAGES: readonly string[] = [
  KYC_MESSAGES.notAnImage,
  KYC_MESSAGES.fileTooLarge,
  KYC_MESSAGES.wrongImageFormat,
];

const STATUS_TEXT: Record<DocumentStatus, string> = {
  uploaded: "Uploaded",
  checking: "Checking",
  verified: "Verified",
  rejected: "Rejected",
};
const STATUS_CLASS: Record<DocumentStatus, string> = {
  uploaded: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  checking: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  verified: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[status]}`}
    >
      {STATUS_TEXT[status]}
    </span>
  );
}

const failedToast = (type: DocumentType) => showToast(documentFailedToast(type));

interface Chosen {
  file: File;
  previewUrl: string;
}

type UploadState =
  | { phase: "idle" }
  | { phase: "uploading"; fraction: number }
  /** A bucket upload landed; S3's event is running the checks. */
  | { phase: "checking" }
  | { phase: "done"; document: UploadedDocument }
  /** The checks did not answer within the wait; the state's polling shows the verdict when they do. */
  | { phase: "pending"; type: DocumentType }
  | { phase: "failed"; title: string; message: string };

interface DocumentStepProps {
  documentTypes: readonly DocumentType[];
  state: KycState;
  onUploaded(): void;
}

/**
 * Step 2 (docs/product/kyc.md#document-step): the country's document types, drag and drop or a file picker, the
 * requirements, the browser's pre-checks (File Validation Failed), a preview, real upload
 * progress, and what the server's checks found.
 */
export function DocumentStep({ documentTypes, state, onUploaded }: DocumentStepProps) {
  const [documentType, setDocumentType] = useState<DocumentType>(
    () => documentTypes.find((type) => state.documents[type]?.status !== "verified") ?? documentTypes[0] ?? "passport",
  );
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState>({ phase: "idle" });
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  const busy = upload.phase === "uploading" || upload.phase === "checking";

  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen.previewUrl) : undefined), [chosen]);

  const take = async (file: File | undefined) => {
    if (!file || busy) return;
    setUpload({ phase: "idle" });
    const problem = await checkFile(file);
    if (problem) {
      setChosen(null);
      setInvalid(problem);
      return;
    }
    setInvalid(null);
    setChosen({ file, previewUrl: URL.createObjectURL(file) });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  };

  const send = async () => {
    if (!chosen || busy) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setUpload({ phase: "uploading", fraction: 0 });
    // Set once a bucket upload's bytes are in: from then on the server records a verdict whatever happens here.
    let landed = false;
    try {
      const options = {
        file: chosen.file,
        documentType,
        signal: controller.signal,
        onProgress: (fraction: number) => setUpload({ phase: "uploading", fraction }),
      };
      const document =
        uploadPathFor(chosen.file.size) === "bucket"
          ? await kycApi.uploadDocumentViaBucket({
              ...options,
              onChecking: () => {
                landed = true;
                setUpload({ phase: "checking" });
              },
            })
          : await kycApi.uploadDocument(options);
      setUpload({ phase: "done", document });
      if (document.status === "verified") {
        // An earlier failure of this type is old news now.
        notify.dismiss(documentFailedToastId(document.type));
        showToast({
          kind: "success",
          message: KYC_MESSAGES.documentVerified(documentLabel(document.type)),
          durationMs: KYC_TOAST_MS.success,
        });
      }
      if (document.status === "rejected") failedToast(document.type);
      onUploaded();
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") {
        if (landed) onUploaded();
        return;
      }
      if (error instanceof DocumentCheckPendingError) {
        setUpload({ phase: "pending", type: error.documentType });
        onUploaded();
        return;
      }
      const message = writeErrorMessage(error, KYC_SERVICE_MESSAGES.uploadFailed);
      if (error instanceof ApiError && error.code === "document_rejected") {
        // A readable picture that failed a quality check: recorded as rejected, so the state changes too.
        failedToast(documentType);
        setUpload({ phase: "failed", title: KYC_UI_MESSAGES.documentFailed(documentLabel(documentType)), message });
        onUploaded();
        return;
      }
      setUpload({
        phase: "failed",
        title: FILE_MESSAGES.includes(message) ? KYC_MESSAGES.fileValidationTitle : "Upload Failed",
        message,
      });
    }
  };

  const cancel = () => {
    abortRef.current?.abort();
    setUpload({ phase: "idle" });
  };

  const given = documentTypes.filter((type) => state.documents[type]);

  return (
    <div className="space-y-6">
      <fieldset>
        <legend className="text-base font-semibold text-slate-900 dark:text-white">Document type</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {documentTypes.map((type) => {
            const current = state.documents[type];
            return (
              <label
                key={type}
                className={`flex cursor-pointer items-center gap-3 rounded-lg border px-3 py-2 text-sm ${
                  documentType === type
                    ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/60"
                    : "border-slate-300 dark:border-slate-700"
                }`}
              >
                <input
                  type="radio"
                  name="kyc-document-type"
                  value={type}
                  checked={documentType === type}
                  disabled={busy}
                  onChange={() => {
                    setDocumentType(type);
                    if (upload.phase === "done" || upload.phase === "pending") setUpload({ phase: "idle" });
                  }}
                  className="h-4 w-4 accent-indigo-600"
                />
                <span className="min-w-0 flex-1 text-slate-900 dark:text-slate-100">{documentLabel(type)}</span>
                {current && <DocumentStatusBadge status={current.status} />}
              </label>
            );
          })}
        </div>
      </fieldset>

      <section aria-labelledby="kyc-requirements-title">
        <h3 id="kyc-requirements-title" className="text-sm font-semibold text-slate-900 dark:text-white">
          Requirements
        </h3>
        <ul className="mt-2 grid gap-1 text-sm text-slate-700 sm:grid-cols-2 dark:text-slate-300">
          {DOCUMENT_REQUIREMENTS.map((requirement) => (
            <li key={requirement} className="flex gap-2">
              <span aria-hidden="true" className="text-emerald-700 dark:text-emerald-300">
                ✓
              </span>
              {requirement}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">JPG, JPEG or PNG, at most 5 MB.</p>
      </section>

      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer shortcut; the
          Choose file button inside is the keyboard way. */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="kyc-dropzone"
        className={`flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed p-6 text-center ${
          dragging
            ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/50"
            : "border-slate-300 dark:border-slate-700"
        }`}
      >
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Drag and drop a photo of your {documentLabel(documentType)} here, or
        </p>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => inputRef.current?.click()}
          disabled={busy}
        >
          Choose file
        </button>
        <input
          ref={inputRef}
          type="file"
          hidden
          accept={ACCEPTED_FILES}
          aria-label="Document image"
          onChange={(event) => {
            void take(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
      </div>

      {invalid && (
        <Notice tone="warning" title={KYC_MESSAGES.fileValidationTitle} urgent>
          {invalid}
        </Notice>
      )}

      {chosen && (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <img
            src={chosen.previewUrl}
            alt={`Preview of ${chosen.file.name}`}
            className="max-h-56 w-full rounded-lg border border-slate-200 object-contain sm:w-64 dark:border-slate-700"
          />
          <div className="min-w-0 flex-1 space-y-3">
            <p className="break-all text-sm text-slate-900 dark:text-slate-100">
              {chosen.file.name}{" "}
              <span className="text-slate-600 dark:text-slate-400">({formatFileSize(chosen.file.size)})</span>
            </p>
            {busy ? (
              <div className="space-y-2">
                <ProgressBar
                  percent={upload.phase === "uploading" ? upload.fraction * 100 : 100}
                  label="Upload progress"
                />
                <div className="flex items-center justify-between gap-3">
                  <p aria-live="polite" className={subtleTextClass}>
                    {upload.phase === "uploading"
                      ? `Uploading… ${Math.round(upload.fraction * 100)}%`
                      : `Uploaded. Checking your ${documentLabel(documentType)}…`}
                  </p>
                  {/* Once the bytes are in the bucket the checks run whatever the page does: nothing left
                      to cancel. */}
                  {upload.phase === "uploading" && (
                    <button type="button" className={secondaryButtonClass} onClick={cancel}>
                      Cancel upload
                    </button>
                  )}
                </div>
              </div>
            ) : (
              // Once this picture is in, another upload needs another picture.
              upload.phase !== "done" &&
              upload.phase !== "pending" && (
                <div className="flex flex-wrap gap-3">
                  <button type="button" className={primaryButtonClass} onClick={() => void send()}>
                    Upload {documentLabel(documentType)}
                  </button>
                </div>
              )
            )}
          </div>
        </div>
      )}

      {upload.phase === "failed" && (
        <Notice tone="error" title={upload.title} urgent>
          {upload.message}
        </Notice>
      )}
      {upload.phase === "done" && <UploadResult document={upload.document} />}
      {upload.phase === "pending" && (
        <Notice tone="info" title={`${documentLabel(upload.type)} received`}>
          The checks are taking longer than usual. Your picture is safely stored; this page shows the verdict when they
          finish.
        </Notice>
      )}

      {given.length > 0 && (
        <section aria-labelledby="kyc-given-title">
          <h3 id="kyc-given-title" className="text-sm font-semibold text-slate-900 dark:text-white">
            Your documents
          </h3>
          <ul className="mt-2 space-y-2">
            {given.map((type) => {
              const document = state.documents[type]!;
              return (
                <li key={type} className="rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-800">
                  <div className="flex items-center justify-between gap-3">
                    <span className="text-slate-900 dark:text-slate-100">{documentTypeLabel(type)}</span>
                    <DocumentStatusBadge status={document.status} />
                  </div>
                  <BulletList items={document.problems ?? []} className="mt-1 text-red-800 dark:text-red-200" />
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}

/** What the server's checks said about the file just sent. */
function UploadResult({ document }: { document: UploadedDocument }) {
  const label = documentLabel(document.type);
  const problems = document.checks?.problems ?? [];
  if (document.status === "verified") {
    return (
      <Notice tone="success" title={KYC_MESSAGES.documentVerified(label)}>
        The checks passed: the image is sharp, bright enough and large enough to read.
      </Notice>
    );
  }
  if (document.status === "rejected") {
    return (
      <Notice tone="error" title={KYC_UI_MESSAGES.documentFailed(label)} urgent>
        {problems.length > 0 ? <BulletList items={problems} /> : KYC_MESSAGES.verificationFailed}
        <p className="mt-2">Take a new photo that meets the requirements and upload it again.</p>
      </Notice>
    );
  }
  return (
    <Notice tone="info" title={`${label} received`}>
      Your document is being checked; this page updates when the checks finish.
    </Notice>
  );
}
