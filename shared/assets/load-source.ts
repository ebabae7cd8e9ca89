import type { BlobStore } from '../adapters/blobs/index.js';
import { notFound } from '../errors/index.js';
import { PermanentJobError } from '../adapters/queue/errors.js';
import { MAX_INPUT_PIXELS } from './limits.js';
import type { AssetCaches, LoadedSource } from './asset-caches.js';
import { probeImage } from './probe-image.js';

/** Bigger sources cannot be under the pixel limit in any format sharp reads here. */
const MAX_SOURCE_BYTES = MAX_INPUT_PIXELS * 4 + 64 * 1024 * 1024;

/**
 * An original's bytes and header for a transform: from this process's caches when it holds
 * them, else read and probed once however many jobs ask at the same time. Refuses (without
 * keeping anything) what is missing, too large or not a readable image within the pixel limit.
 */
export function loadSource(blobs: BlobStore, caches: AssetCaches, key: string): Promise<LoadedSource> {
  const input = caches.sources.get(key);
  const header = caches.sourceHeaders.get(key);
  if (input && header) return Promise.resolve({ input, header });

  const inflight = caches.loading;
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
