import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType?: string;
  /**
   * Whether the object must survive a crash of the machine right after `put` returns (the folder
   * store fsyncs it). Caches that can be rebuilt (image derivatives) skip that cost. S3 objects
   * are durable either way. @default true
   */
  durable?: boolean;
}

export interface BlobInfo {
  key: string;
  /** Size of the whole object in bytes (also when a range was read). */
  size: number;
  /** As given to `put`; `application/octet-stream` when none was given. */
  contentType?: string;
  /** Opaque content tag from the store (S3 ETag, or size+mtime for the folder). */
  etag?: string;
  lastModified?: Date;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive; omitted = to the end. */
  end?: number;
}

export interface BlobObject extends BlobInfo {
  body: Readable;
  /** Present when a range was asked for: the bytes actually returned (inclusive). */
  range?: { start: number; end: number };
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * Thrown by `get` when a range starts at or beyond the end of the object (HTTP 416). Ranges that
 * end beyond the object are clamped instead.
 */
export class RangeNotSatisfiableError extends Error {
  readonly size: number;
  constructor(key: string, size: number) {
    super(`Range not satisfiable for ${key} (size ${size}).`);
    this.name = 'RangeNotSatisfiableError';
    this.size = size;
  }
}

/**
 * The blob store: S3 in production, a local folder when embedded. Keys are '/'-separated paths
 * built only by `shared/adapters/blobs/keys.ts`.
 */
export interface BlobStore {
  readonly kind: 's3' | 'fs';
  /**
   * Streams `body` in; the object appears whole or not at all (a body stream that errors leaves
   * nothing behind and rejects with its error). Bad keys throw a 400 AppError in every method.
   */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<BlobInfo>;
  /**
   * null when the key does not exist; see `RangeNotSatisfiableError` for ranges. The caller must
   * consume or destroy `body`: it holds a file handle or an HTTP connection until then.
   */
  get(key: string, options?: { range?: ByteRange }): Promise<BlobObject | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key starting with `prefix` (plain string prefix; order unspecified). */
  list(prefix: string): AsyncIterable<string>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
