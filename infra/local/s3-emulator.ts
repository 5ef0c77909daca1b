import { mkdirSync } from "node:fs";
import S3rver from "s3rver";
import { buckets, corsXml, settlementsBucket } from "../resources/buckets";
import { freePort, LOOPBACK } from "./ports";

export interface S3Emulator {
  endpoint: string;
  port: number;
  server: S3rver;
  stop(): Promise<void>;
}

/** s3rver, in this process, with the buckets of infra/resources (and their browser-upload CORS) configured. */
export async function startS3Emulator(options: {
  directory: string;
  port?: number;
  corsOrigins: readonly string[];
  bucketNames: { kyc: string; settlements: string };
}): Promise<S3Emulator> {
  mkdirSync(options.directory, { recursive: true });
  const port = options.port ?? (await freePort());
  const [kyc] = buckets;
  const server = new S3rver({
    port,
    address: LOOPBACK,
    directory: options.directory,
    silent: true,
    configureBuckets: [
      { name: options.bucketNames.kyc, configs: kyc.cors ? [corsXml(options.corsOrigins)] : [] },
      { name: options.bucketNames.settlements, configs: [corsXml(options.corsOrigins, settlementsBucket.cors)] },
    ],
  });
  await server.run();
  return {
    endpoint: `http://${LOOPBACK}:${port}`,
    port,
    server,
    async stop() {
      server.httpServer?.closeAllConnections();
      await server.close();
    },
  };
}
