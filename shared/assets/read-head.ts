import { Readable } from 'node:stream';
import { payloadTooLarge } from '../errors/index.js';

export interface HeadAndBody {
  /** The first bytes (up to the asked size, less when the body is shorter). */
  head: Buffer;
  /** True when `head` is the whole body. */
  complete: boolean;
  /** The whole body again (head first), counting bytes: errors with 413 past `maxBytes`. */
  body: Readable;
  /** Bytes that went through `body` so far. */
  bytes(): number;
  /**
   * Reads further, before `body` is used, so `head` holds up to `headBytes` (same 413 rule);
   * for the rare file whose header sits past the first read.
   */
  extend(headBytes: number): Promise<Buffer>;
}

/** Bytes read and discarded after a refused upload, so the client gets to read the 413. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

function drain(source: Readable, iterator: AsyncIterator<Buffer>): void {
  let drained = 0;
  void (async () => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        drained += next.value.length;
        if (drained > DRAIN_LIMIT) return source.destroy();
      }
    } catch {
      // the client went away
    }
  })();
}

/**
 * Reads the first `headBytes` of a stream so the type and image header can be checked before
 * anything is stored, then hands back a stream of the whole body: large uploads are never held
 * in memory beyond the head.
 */
export async function readHead(source: Readable, options: { headBytes: number; maxBytes: number }): Promise<HeadAndBody> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buffered = Buffer.alloc(0);
  let complete = false;
  let started = false;
  /** Reads on until `target` bytes are held (or the body ends). */
  const fill = async (target: number) => {
    const chunks: Buffer[] = [buffered];
    let length = buffered.length;
    while (!complete && length < target) {
      const next = await iterator.next();
      if (next.done) {
        complete = true;
        break;
      }
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      chunks.push(chunk);
      length += chunk.length;
      if (length > options.maxBytes) {
        drain(source, iterator);
        throw payloadTooLarge(options.maxBytes);
      }
    }
    buffered = Buffer.concat(chunks);
  };
  await fill(options.headBytes);

  let seen = 0;
  async function* whole() {
    started = true;
    seen += buffered.length;
    yield buffered;
    if (complete) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      seen += next.value.length;
      if (seen > options.maxBytes) {
        drain(source, iterator);
        throw payloadTooLarge(options.maxBytes);
      }
      yield next.value;
    }
  }
  const result: HeadAndBody = {
    head: buffered.subarray(0, options.headBytes),
    complete,
    body: Readable.from(whole(), { objectMode: false }),
    bytes: () => seen,
    async extend(headBytes: number) {
      if (started) throw new Error('readHead: extend() after the body was read');
      await fill(headBytes);
      result.head = buffered.subarray(0, headBytes);
      result.complete = complete;
      return result.head;
    },
  };
  return result;
}
