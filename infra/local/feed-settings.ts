/**
 * Feed polling on the embedded stack. There the API is one process, so every commit reaches its
 * feed readers as an in-process hint (see announceCommits in packages/core/src/events/feed.ts)
 * and they read at once; polling and the late rescan only back that up, for writes from other
 * processes on the same table. So the embedded stack polls rarely: on a 2-core laptop, DynamoDB
 * Local is the scarce resource, and the cloud settings (100 ms after activity, 500 ms idle, a
 * rescan every 5 s: there each Lambda instance serves one stream and the commits are made in
 * other instances) would spend most of it on 200 open streams. The settle window is shorter too:
 * one process has one clock, and a commit that lands late is found at once through its hint.
 */
export const EMBEDDED_FEED_SETTINGS = {
  FEED_SETTLE_MS: "50",
  FEED_POLL_MIN_MS: "2000",
  FEED_POLL_MAX_MS: "10000",
  FEED_LATE_SCAN_MS: "10000",
} as const;
