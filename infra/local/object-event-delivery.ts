import type S3rver from "s3rver";
import type { S3EventRecord } from "s3rver";

/**
 * The embedded stack's stand-in for an S3 notification: the S3 emulator's events that `accepts`
 * go to `process`, the same function the cloud's Lambda runs. Deliveries are queued one after
 * another (as a reserved-concurrency-1 consumer would take them), and `idle()` resolves once
 * everything delivered so far has been handled, so tests and shutdown wait for it instead of
 * sleeping.
 */
export interface ObjectEventDelivery {
  /** Resolves when every event received so far has been processed. */
  idle(): Promise<void>;
  /** Stops listening, then waits for what is queued. */
  stop(): Promise<void>;
}

export function deliverObjectEvents(
  server: S3rver,
  accepts: (record: S3EventRecord) => boolean,
  process: (records: S3EventRecord[]) => Promise<unknown>,
): ObjectEventDelivery {
  let queue: Promise<void> = Promise.resolve();
  const listener = (event: { Records: S3EventRecord[] }) => {
    const records = event.Records.filter(accepts);
    if (records.length === 0) return;
    queue = queue.then(() =>
      process(records).then(
        () => undefined,
        // The processor logs its failure; the cloud would retry the invocation, here the next event goes on.
        () => undefined,
      ),
    );
  };
  server.on("event", listener);
  const idle = async () => {
    // An event handled while waiting may not add more, but a caller's upload may have: wait until
    // the queue stands still.
    let seen: Promise<void>;
    do {
      seen = queue;
      await seen;
    } while (seen !== queue);
  };
  return {
    idle,
    async stop() {
      server.off("event", listener);
      await idle();
    },
  };
}
