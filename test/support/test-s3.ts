import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../../shared/config.js';
import { randomBase62 } from '../../shared/ids.js';
import { startS3rver } from './s3rver.js';

export interface TestS3 {
  /** 'radosgw' (a real Ceph RADOS Gateway) or 's3rver' (in-process stand-in). */
  server: 'radosgw' | 's3rver';
  /** Ready for `createS3BlobStore` / `Config.s3`, with a bucket of its own. */
  s3Config: S3Config & Required<Pick<S3Config, 'endpoint' | 'accessKeyId' | 'secretAccessKey'>>;
  /** Multipart uploads still open in the bucket (a failed put must leave none); null when the server cannot list them. */
  openUploads(): Promise<string[] | null>;
  /** Empties and deletes the bucket (or stops the stand-in). */
  close(): Promise<void>;
}

/**
 * The S3 server a test writes to. With FOLIO_TEST_S3_ENDPOINT, FOLIO_TEST_S3_ACCESS_KEY and
 * FOLIO_TEST_S3_SECRET_KEY set (test/support/radosgw.sh writes them; `.ci/run` starts it), a
 * real RADOS Gateway with a fresh bucket per call; otherwise an in-process s3rver. Tests that
 * inject a fault into the S3 server itself use s3rver directly.
 */
export async function startTestS3(): Promise<TestS3> {
  const endpoint = process.env.FOLIO_TEST_S3_ENDPOINT;
  if (!endpoint) {
    const s3rver = await startS3rver();
    return { server: 's3rver', s3Config: { ...s3rver.s3Config, endpoint: s3rver.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, openUploads: async () => null, close: () => s3rver.close() };
  }
  const s3Config: TestS3['s3Config'] = {
    endpoint,
    bucket: `folio-test-${randomBase62(10).toLowerCase()}`,
    region: 'us-east-1',
    accessKeyId: process.env.FOLIO_TEST_S3_ACCESS_KEY ?? '',
    secretAccessKey: process.env.FOLIO_TEST_S3_SECRET_KEY ?? '',
    forcePathStyle: true,
  };
  const client = new S3Client({
    endpoint,
    region: s3Config.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3Config.accessKeyId, secretAccessKey: s3Config.secretAccessKey },
  });
  const Bucket = s3Config.bucket;
  await client.send(new CreateBucketCommand({ Bucket }));
  const uploads = async () => (await client.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? [];
  return {
    server: 'radosgw',
    s3Config,
    openUploads: async () => (await uploads()).map((u) => `${u.Key} (${u.UploadId})`),
    async close() {
      // The gateway keeps objects in memory: every bucket is emptied so a whole suite fits.
      for (const u of await uploads()) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
      for (let token: string | undefined, more = true; more; ) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }));
        token = page.NextContinuationToken;
        more = page.IsTruncated === true;
      }
      await client.send(new DeleteBucketCommand({ Bucket }));
      client.destroy();
    },
  };
}
