/** Saves a Blob as a file through a temporary object URL (the export needs the bearer token, so no plain link). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has started the download by then.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The server's name for the file, else transactions-YYYY-MM-DD.csv for today (UTC, as the server does). */
export const exportFilename = (fromServer: string | null, now: Date = new Date()): string =>
  fromServer ?? `transactions-${now.toISOString().slice(0, 10)}.csv`;
