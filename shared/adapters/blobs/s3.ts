import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { S3Config } from '../../config.js';
import { assertValidKey, assertValidPrefix } from './keys.js';
import { assertValidRange, clampRange } from './range.js';
import { DEFAULT_CONTENT_TYPE, RangeNotSatisfiableError, type BlobInfo, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  /** Multipart part size for streamed puts. @default 8 MiB */
  partSize?: number;
  /** Parts uploaded in parallel per put. @default 4 */
  queueSize?: number;
}

export interface S3BlobStore extends BlobStore {
  /** Creates the bucket when it is missing. Only test harnesses and `folio` setup call this. */
  ensureBucket(): Promise<void>;
}

/** The production blob store: any S3-compatible service (AWS, MinIO, R2, s3rver in tests). */
export function createS3BlobStore(s3: S3Config, options: S3BlobStoreOptions = {}): S3BlobStore {
  const clientConfig: S3ClientConfig = {
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible servers (MinIO, s3rver, older Ceph)
    // reject or mishandle the SDK's default trailing checksums on streamed uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (s3.accessKeyId && s3.secretAccessKey) {
    clientConfig.credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  }
  const client = new S3Client(clientConfig);
  const Bucket = s3.bucket;

  return {
    kind: 's3',

    async put(key, body, putOptions = {}) {
      assertValidKey(key);
      const ContentType = putOptions.contentType ?? DEFAULT_CONTENT_TYPE;
      if (Buffer.isBuffer(body)) {
        const res = await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType }));
        return { key, size: body.length, contentType: ContentType, etag: res.ETag };
      }
      let size = 0;
      async function* counted(source: Readable) {
        for await (const chunk of source) {
          size += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      }
      // A body that errors makes Upload abort the multipart upload: no object, no orphaned parts.
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: Readable.from(counted(body)), ContentType },
        partSize: options.partSize ?? 8 * 1024 * 1024,
        queueSize: options.queueSize ?? 4,
        leavePartsOnError: false,
      });
      const res = await upload.done();
      return { key, size, contentType: ContentType, etag: res.ETag };
    },

    async get(key, getOptions = {}) {
      assertValidKey(key);
      const range = getOptions.range;
      if (range) assertValidRange(range);
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const body = res.Body as Readable;
        const info: BlobInfo = {
          key,
          size: res.ContentLength ?? 0,
          contentType: res.ContentType ?? DEFAULT_CONTENT_TYPE,
          etag: res.ETag,
          lastModified: res.LastModified,
        };
        if (!range) return { ...info, body };
        const parsed = parseContentRange(res.ContentRange);
        if (!parsed) {
          // The server ignored the Range header (HTTP allows that): cut the range out ourselves.
          const clamped = clampRange(key, range, info.size);
          return { ...info, body: Readable.from(slice(body, clamped.start, clamped.end)), range: clamped };
        }
        return { ...info, size: parsed.size, body, range: { start: parsed.start, end: parsed.end } };
      } catch (err) {
        if (isNotFound(err)) return null;
        if (statusOf(err) === 416) {
          const head = await this.head(key);
          if (!head) return null;
          throw new RangeNotSatisfiableError(key, head.size);
        }
        throw err;
      }
    },

    async head(key) {
      assertValidKey(key);
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          key,
          size: res.ContentLength ?? 0,
          contentType: res.ContentType ?? DEFAULT_CONTENT_TYPE,
          etag: res.ETag,
          lastModified: res.LastModified,
        };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      assertValidKey(key);
      // S3 answers 204 for a missing key already.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    list(prefix) {
      assertValidPrefix(prefix);
      // ListObjects (v1) paged by Marker = last key: every S3-compatible server supports it,
      // while s3rver's v2 continuation tokens use DES, which Node's OpenSSL 3 no longer offers.
      return (async function* () {
        let Marker: string | undefined;
        for (;;) {
          const res = await client.send(new ListObjectsCommand({ Bucket, Prefix: prefix || undefined, Marker }));
          const contents = res.Contents ?? [];
          for (const item of contents) if (item.Key) yield item.Key;
          const last = contents.at(-1)?.Key;
          if (!res.IsTruncated || !last) return;
          Marker = last;
        }
      })();
    },

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },

    async close() {
      client.destroy();
    },
  };
}

function parseContentRange(value: string | undefined) {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? '');
  return m ? { start: Number(m[1]), end: Number(m[2]), size: Number(m[3]) } : null;
}

async function* slice(source: Readable, start: number, end: number) {
  let offset = 0;
  for await (const chunk of source) {
    const buf = chunk as Buffer;
    const from = Math.max(start - offset, 0);
    const to = Math.min(end + 1 - offset, buf.length);
    if (to > from) yield buf.subarray(from, to);
    offset += buf.length;
    if (offset > end) break;
  }
  source.destroy();
}

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

const isNotFound = (err: unknown) => {
  const name = (err as { name?: string }).name;
  // A missing bucket is a configuration fault, not a missing object: let it surface.
  return name !== 'NoSuchBucket' && (name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404);
};
