import { PassThrough, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { payloadTooLarge, unsupportedMediaType } from '../../../shared/errors/index.js';

/** Why a decoded body's chunks stopped before its end. */
export type BodyStop = { kind: 'corrupt' | 'too-large' | 'disconnected'; reason: string };

/** What a decoded body stream reports once it has been read: whether it broke off, and why. */
export interface DecodedBody {
  chunks: AsyncIterable<Buffer>;
  /** Set when the compressed data turned out corrupt or truncated, the body passed its limit or the client went away: the chunks stop there. */
  stopped(): BodyStop | null;
}

// 64 KiB of output per step of the decoder instead of zlib's 16 KiB: a quarter of the
// thread-pool round trips for the same bytes, so reaching the limit of a bomb takes seconds.
const CHUNK_BYTES = 64 * 1024;

/**
 * Wire bytes read ahead of the reader. A socket that is not read does not see its client leave
 * (the close comes after the unread bytes), so the body is taken off the socket this far ahead
 * of the import: a body up to this size (a compressed export of about a hundred megabytes, a
 * bomb) is off the socket at once, and a disconnect is seen as it happens.
 */
export const READ_AHEAD_BYTES = 16 * 1024 * 1024;

const OPTIONS = { chunkSize: CHUNK_BYTES };

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(OPTIONS),
  'x-gzip': () => zlib.createGunzip(OPTIONS),
  deflate: () => zlib.createInflate(OPTIONS),
  br: () => zlib.createBrotliDecompress(OPTIONS),
};

type BodyRequest = Readable & { headers: Record<string, string | string[] | undefined> };

/**
 * A streamed request body with its `Content-Encoding` (gzip, deflate or br; one coding) undone
 * as it is read, a chunk at a time on the libuv pool — never whole in memory (at most
 * READ_AHEAD_BYTES of it wait). `limitBytes` bounds the body both on the wire and decoded: a
 * declared `Content-Length` above it is refused before anything is read (413), and the chunks
 * end as soon as either count passes it, so a small body that expands without bound costs at most
 * `limitBytes` of decoding. Past the limit or a break in the compressed data, the rest of the
 * body is read and dropped (the client still receives the answer), and `stopped()` says why.
 * `signal` aborted (the client went away) ends the chunks too, and the decoding with them.
 */
export function decodedBody(req: BodyRequest, limitBytes: number, signal?: AbortSignal): DecodedBody {
  const coding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase();
  const make = coding === '' || coding === 'identity' ? () => new PassThrough() : DECODERS[coding];
  if (make === undefined) throw unsupportedMediaType(`Content-Encoding "${coding}" is not supported; use gzip, deflate or br.`);
  if (Number(req.headers['content-length'] ?? 0) > limitBytes) throw payloadTooLarge(limitBytes);
  let stop: BodyStop | null = null;
  const stage = make();
  // the read-ahead sits before the decoder, which takes its input as it is read
  const ahead = new PassThrough({ highWaterMark: READ_AHEAD_BYTES / 2 }); // on each of its two sides
  // a decoding error is read through the chunks (below), also when it comes after they stopped
  stage.on('error', () => undefined);
  // the rest of a refused body is read and dropped, so that the answer reaches the client
  const end = (why: BodyStop) => {
    stop ??= why;
    req.unpipe(ahead);
    ahead.unpipe(stage);
    ahead.destroy();
    stage.destroy();
    req.resume();
  };
  const tooLarge = (): BodyStop => ({ kind: 'too-large', reason: payloadTooLarge(limitBytes).message });
  let wireBytes = 0;
  req.on('data', (chunk: Buffer) => {
    wireBytes += chunk.length;
    if (wireBytes > limitBytes && stop === null) end(tooLarge());
  });
  signal?.addEventListener('abort', () => end({ kind: 'disconnected', reason: 'the client disconnected' }));
  req.pipe(ahead).pipe(stage);
  return {
    chunks: (async function* () {
      let decodedBytes = 0;
      try {
        for await (const chunk of stage) {
          const buf = chunk as Buffer;
          decodedBytes += buf.length;
          if (decodedBytes > limitBytes) end(tooLarge());
          if (stop !== null) break;
          yield buf;
        }
      } catch {
        end({ kind: 'corrupt', reason: coding === '' || coding === 'identity' ? 'the body was cut short' : `the ${coding} data of the body is corrupt or cut short` });
      }
    })(),
    stopped: () => stop,
  };
}
