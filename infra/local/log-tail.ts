/**
 * The last `limit` characters of a child process's output, kept for the error message when it
 * fails to start. Bounded: a long-running DynamoDB Local logs for as long as it runs.
 */
export class LogTail {
  #text = "";

  constructor(readonly limit = 4000) {}

  append(chunk: Buffer | string): void {
    const next = this.#text + chunk.toString();
    this.#text = next.length > this.limit ? next.slice(-this.limit) : next;
  }

  toString(): string {
    return this.#text;
  }
}
