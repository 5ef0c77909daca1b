import { useId, useRef, useState, type FormEvent } from "react";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { ProgressBar } from "../kyc/ui";
import { cardClass, errorTextClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { useRails } from "../rails/hooks";
import { notify } from "../toast/notify";
import { reconciliationApi } from "./api";
import { checkCsvFile, CSV_ACCEPT, previousDay, RECON_SCREEN_MESSAGES } from "./format";
import { useInvalidateRecon } from "./hooks";
import { ReconcilePendingError, uploadSettlementFile, type UploadPhase } from "./upload";

const PHASE_TEXT: Record<UploadPhase, string> = {
  signing: "Preparing the upload…",
  sending: "Uploading…",
  reconciling: "Uploaded: reconciling against the ledger…",
};

/**
 * "Upload settlement file": the rail, the settlement day and a CSV file. A file that is not CSV
 * text is refused here before a byte leaves; the bytes go straight to the bucket with a presigned
 * POST (the progress bar is the real transfer), then the panel waits for the reconciled file.
 */
export function UploadPanel({ today }: { today: string }) {
  const headingId = useId();
  const fileHelpId = useId();
  const fileErrorId = useId();
  const rails = useRails();
  const invalidate = useInvalidateRecon();
  const [railId, setRailId] = useState("");
  const [date, setDate] = useState(() => previousDay(today));
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [progress, setProgress] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const busy = phase !== null;
  const railOptions = rails.data ?? [];
  const chosenRail = railId || railOptions[0]?.id || "";

  const onFile = async (chosen: File | null) => {
    setFile(null);
    setProblem(null);
    if (!chosen) return;
    const refused = await checkCsvFile(chosen);
    if (refused) {
      setProblem(refused);
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setFile(chosen);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(RECON_SCREEN_MESSAGES.chooseFile);
    if (!chosenRail) return setProblem(RECON_SCREEN_MESSAGES.chooseRail);
    if (!date) return setProblem(RECON_SCREEN_MESSAGES.chooseDate);
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const { file: reconciled, recordedBefore } = await uploadSettlementFile(reconciliationApi, {
        railId: chosenRail,
        date,
        file,
        onPhase: setPhase,
        onProgress: (fraction) => setProgress(fraction * 100),
        signal: controller.signal,
      });
      if (recordedBefore)
        notify.info(RECON_SCREEN_MESSAGES.recordedBefore(reconciled.filename, reconciled.statusLabel));
      else if (reconciled.rejection !== null)
        notify.error(RECON_SCREEN_MESSAGES.notBooked(reconciled.filename, reconciled.rejection));
      else notify.success(`${reconciled.filename}: ${reconciled.statusLabel}`);
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
    } catch (caught) {
      if (caught instanceof DOMException && caught.name === "AbortError") notify.info("Upload cancelled");
      else if (caught instanceof ReconcilePendingError) notify.info(RECON_SCREEN_MESSAGES.notYetReconciled);
      else notify.error(errorMessage(caught, "Failed to upload the settlement file"));
    } finally {
      abort.current = null;
      setPhase(null);
      void invalidate();
    }
  };

  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <h2 id={headingId} className={sectionTitleClass}>
        Upload settlement file
      </h2>
      <p className={`mt-1 ${subtleTextClass}`}>
        A rail's CSV file for one day (columns rail, reference, amount, currency, fee, type, settled_at). It is
        reconciled as soon as it lands, like a processor's nightly drop.
      </p>
      <form
        className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
      >
        <div>
          <label htmlFor={`${headingId}-rail`} className={labelClass}>
            Rail
          </label>
          <select
            id={`${headingId}-rail`}
            className={inputClass}
            value={chosenRail}
            onChange={(event) => setRailId(event.target.value)}
            disabled={busy || railOptions.length === 0}
          >
            {railOptions.length === 0 && <option value="">{rails.isError ? "Rails unavailable" : "Loading…"}</option>}
            {railOptions.map((rail) => (
              <option key={rail.id} value={rail.id}>
                {rail.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${headingId}-date`} className={labelClass}>
            Settlement day
          </label>
          <input
            id={`${headingId}-date`}
            type="date"
            className={inputClass}
            value={date}
            max={today}
            onChange={(event) => setDate(event.target.value)}
            disabled={busy}
          />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={`${headingId}-file`} className={labelClass}>
            Settlement file (CSV)
          </label>
          <input
            ref={fileInput}
            id={`${headingId}-file`}
            type="file"
            accept={CSV_ACCEPT}
            className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-semibold file:text-slate-800 dark:file:bg-slate-700 dark:file:text-slate-100`}
            aria-describedby={problem ? `${fileHelpId} ${fileErrorId}` : fileHelpId}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => void onFile(event.target.files?.[0] ?? null)}
            disabled={busy}
          />
          <p id={fileHelpId} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            CSV only, up to 100 MB.
          </p>
          {problem && (
            <p id={fileErrorId} role="alert" className={`mt-1 ${errorTextClass}`}>
              {problem}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-4">
          <button type="submit" className={primaryButtonClass} disabled={busy || !file}>
            Upload and reconcile
          </button>
          {phase === "sending" && (
            <button type="button" className={secondaryButtonClass} onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          )}
          {phase && (
            <div className="min-w-48 flex-1" aria-live="polite">
              <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{PHASE_TEXT[phase]}</p>
              <ProgressBar className="mt-1" percent={progress} label="Upload progress" />
            </div>
          )}
        </div>
      </form>
    </section>
  );
}
