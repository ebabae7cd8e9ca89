import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../shared/config.js';
import { randomBase62 } from '../../shared/ids.js';

export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  /** Ready for `createS3BlobStore` / `Config.s3`: path-style, S3RVER/S3RVER, us-east-1. */
  s3Config: S3Config;
  close(): Promise<void>;
}

/**
 * An in-process S3 (s3rver) on a free port, storing into a fresh temp folder, with one bucket
 * already created. Each call is independent; `close()` stops it and deletes the folder.
 */
export async function startS3rver(options: { bucket?: string } = {}): Promise<RunningS3rver> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'folio-s3rver-'));
  const bucket = options.bucket ?? `folio-test-${randomBase62(8).toLowerCase()}`;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    s3Config: {
      endpoint,
      bucket,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      // Keep-alive sockets from SDK clients would otherwise hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
