/** The slice of s3rver's API this project uses (the package ships no types). */
declare module "s3rver" {
  import type { EventEmitter } from "node:events";
  import type { Server } from "node:http";

  export interface S3rverOptions {
    port?: number;
    address?: string;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export interface S3EventRecord {
    eventName: string;
    s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string } };
  }

  export default class S3rver extends EventEmitter {
    constructor(options?: S3rverOptions);
    httpServer?: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    on(event: "event", listener: (event: { Records: S3EventRecord[] }) => void): this;
  }
}
