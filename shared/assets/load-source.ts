import type { BlobStore } from '../blobs/index.js';
import { notFound } from '../errors/index.js';
import { PermanentJobError } from '../queue/errors.js';
import { MAX_INPUT_PIXELS } from './limits.js';
import { memoryCaches } from './memory-cache.js';
import { probeImage, type ImageHeader } from './probe-image.js';

/** Bigger sources cannot be under the pixel limit in any format sharp reads here. */
const MAX_SOURCE_BYTES = MAX_INPUT_PIXELS * 4 + 64 * 1024 * 1024;

export interface LoadedSource {
  input: Buffer;
  header: ImageHeader;
}

// Loads under way, per store: a page that goes live asks for several derivatives of one new
// image at once, and each of their jobs would otherwise read and probe the whole original.
const loading = new WeakMap<BlobStore, Map<string, Promise<LoadedSource>>>();

/**
 * An original's bytes and header for a transform: from this process's caches when it holds
 * them, else read and probed once however many jobs ask at the same time. Refuses (without
 * keeping anything) what is missing, too large or not a readable image within the pixel limit.
 */
export function loadSource(blobs: BlobStore, key: string): Promise<LoadedSource> {
  const caches = memoryCaches(blobs);
  const input = caches.sources.get(key);
  const header = caches.sourceHeaders.get(key);
  if (input && header) return Promise.resolve({ input, header });

  let inflight = loading.get(blobs);
  if (!inflight) loading.set(blobs, (inflight = new Map()));
  let load = inflight.get(key);
  if (!load) {
    load = (async () => {
      const bytes = input ?? (await readSource(blobs, key));
      const probed = header ?? (await probeImage(bytes));
      caches.sources.set(key, bytes);
      caches.sourceHeaders.set(key, probed);
      return { input: bytes, header: probed };
    })();
    const done = () => inflight.delete(key);
    load.then(done, done);
    inflight.set(key, load);
  }
  return load;
}

async function readSource(blobs: BlobStore, key: string): Promise<Buffer> {
  const source = await blobs.get(key);
  if (!source) throw notFound('Source image');
  if (source.size > MAX_SOURCE_BYTES) {
    source.body.destroy();
    throw new PermanentJobError('Source image is too large to transform.');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of source.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
