import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { unsupportedMediaType } from '../../../shared/errors/index.js';

/** What a decoded body stream reports once it has been read: whether its encoding broke off. */
export interface DecodedBody {
  chunks: AsyncIterable<Buffer>;
  /** Set when the compressed data turned out corrupt or truncated: the chunks stop there. */
  corrupt(): string | null;
}

const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * A streamed request body with its `Content-Encoding` (gzip, deflate or br; one coding) undone
 * as it is read, a chunk at a time on the libuv pool — never whole in memory, so a small body
 * that expands without bound is only as costly as what the reader takes from it. A body whose
 * compressed data breaks off ends the chunks there, and `corrupt()` says why.
 */
export function decodedBody(req: Readable & { headers: Record<string, string | string[] | undefined> }): DecodedBody {
  const coding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { chunks: req, corrupt: () => null };
  const make = DECODERS[coding];
  if (!make) throw unsupportedMediaType(`Content-Encoding "${coding}" is not supported; use gzip, deflate or br.`);
  let problem: string | null = null;
  const decoder = make();
  req.pipe(decoder);
  return {
    chunks: (async function* () {
      try {
        for await (const chunk of decoder) yield chunk as Buffer;
      } catch {
        problem = `the ${coding} data of the body is corrupt or cut short`;
        req.unpipe(decoder);
        req.resume();
      }
    })(),
    corrupt: () => problem,
  };
}
