/**
 * How a started whole-ledger integrity job gets its steps run (runIntegrityStep, one page each).
 * The cloud's driver sends a message to the IntegrityJobs queue, whose worker function runs steps
 * until its time is nearly up and sends the next message; the embedded stack's local worker loops
 * in-process. Tests leave it out and call runIntegrityStep themselves.
 */
export interface IntegrityJobQueue {
  /** Ask for the job's steps to be run from where it stands; asking twice is harmless. */
  enqueue(jobId: string): Promise<void>;
}
