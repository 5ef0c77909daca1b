import { api } from "../api";
import { apiBaseUrl } from "../config";
import { startFeed, type FeedOptions, type LiveStream } from "./feedClient";
import { feedStreamUrl } from "./feedState";

export interface BrowserFeedOptions<E> extends Pick<FeedOptions<E>, "healthy" | "onEvent" | "onStatus" | "onResumed"> {
  stream: LiveStream<E>;
  /** The stream's path under the API ("/api/grpc/ledger/stream"). */
  path: string;
  userId: string;
}

/**
 * Runs a stream in this page, wired to the browser: the app's API address and stream ticket, a real
 * EventSource, failures to the console, and the window's online/offline events (offline pauses the
 * feed; back online it reconnects at once). Returns the stop, for an effect's cleanup.
 */
export function startBrowserFeed<E>({ stream, path, userId, ...handlers }: BrowserFeedOptions<E>): () => void {
  const feed = startFeed({
    ...stream,
    ...handlers,
    streamUrl: (resume) => feedStreamUrl(apiBaseUrl, path, { userId, ...resume }),
    getTicket: async () => (await api.ledger.streamTicket()).ticket,
    openStream: (url) => new EventSource(url),
    warn: (message, detail) => console.warn(message, ...(detail === undefined ? [] : [detail])),
    online: navigator.onLine,
  });
  const goOnline = () => feed.setOnline(true);
  const goOffline = () => feed.setOnline(false);
  window.addEventListener("online", goOnline);
  window.addEventListener("offline", goOffline);
  return () => {
    window.removeEventListener("online", goOnline);
    window.removeEventListener("offline", goOffline);
    feed.stop();
  };
}
