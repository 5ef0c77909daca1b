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
  // Released once the browser has surely read it (it starts reading on the click, asynchronously).
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The server's name for the file, else transactions-YYYY-MM-DD.csv for today (UTC, as the server does). */
export const exportFilename = (fromServer: string | null, now: Date = new Date()): string =>
  fromServer ?? `transactions-${now.toISOString().slice(0, 10)}.csv`;
