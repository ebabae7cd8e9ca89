import { mkdirSync } from 'node:fs';
import { access, constants, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBase62 } from '../ids.js';
import { assertValidKey, assertValidPrefix } from './keys.js';
import { clampRange } from './range.js';
import { DEFAULT_CONTENT_TYPE, type BlobInfo, type BlobObject, type BlobStore } from './index.js';

export interface FsBlobStoreOptions {
  /** Folder holding `objects/` (the bytes, one file per key), `meta/` (sidecars) and `tmp/`. */
  root: string;
}

interface Sidecar {
  contentType: string;
}

/**
 * The embedded blob store: a local folder. A put streams into `tmp/` (same file system), fsyncs
 * and renames into place, so readers see the old object or the whole new one, never a part;
 * keeping temp files outside `objects/` keeps them out of `list` and `get`. The content type
 * lives in a JSON sidecar under `meta/` (no xattrs: they do not survive every copy or volume).
 * Limitation: a key cannot also be a "folder" of other keys (`a` and `a/b`), which S3 allows;
 * the key layout in keys.ts never does that.
 */
export function createFsBlobStore(options: FsBlobStoreOptions): BlobStore {
  const root = path.resolve(options.root);
  const objectsDir = path.join(root, 'objects');
  const metaDir = path.join(root, 'meta');
  const tmpDir = path.join(root, 'tmp');
  for (const dir of [objectsDir, metaDir, tmpDir]) mkdirSync(dir, { recursive: true });

  // keys.ts guarantees no '..' or empty segments, so joined paths stay under root.
  const objectPath = (key: string) => path.join(objectsDir, ...key.split('/'));
  const metaPath = (key: string) => path.join(metaDir, ...key.split('/')) + '.json';

  const readSidecar = async (key: string): Promise<Sidecar | null> => {
    try {
      return JSON.parse(await readFile(metaPath(key), 'utf8')) as Sidecar;
    } catch {
      return null;
    }
  };

  const infoOf = (key: string, st: Stats, sidecar: Sidecar | null): BlobInfo => ({
    key,
    size: st.size,
    contentType: sidecar?.contentType ?? DEFAULT_CONTENT_TYPE,
    etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`,
    lastModified: st.mtime,
  });

  return {
    kind: 'fs',

    async put(key, body, putOptions = {}) {
      assertValidKey(key);
      const tmpData = path.join(tmpDir, `${Date.now()}-${randomBase62(12)}`);
      const tmpMeta = `${tmpData}.json`;
      try {
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        await pipeline(source, (await open(tmpData, 'wx')).createWriteStream());
        // durable before visible: ingest answers 2xx right after put
        if (putOptions.durable !== false) await fsyncFile(tmpData);
        const sidecar: Sidecar = { contentType: putOptions.contentType ?? DEFAULT_CONTENT_TYPE };
        await writeFile(tmpMeta, JSON.stringify(sidecar), { flush: putOptions.durable !== false });
        const dest = objectPath(key);
        await mkdir(path.dirname(dest), { recursive: true });
        await mkdir(path.dirname(metaPath(key)), { recursive: true });
        // Sidecar first: once the object is visible its content type is already there.
        await rename(tmpMeta, metaPath(key));
        await rename(tmpData, dest);
        const st = await stat(dest);
        return infoOf(key, st, sidecar);
      } catch (err) {
        await rm(tmpData, { force: true });
        await rm(tmpMeta, { force: true });
        throw err;
      }
    },

    async get(key, getOptions = {}) {
      assertValidKey(key);
      // Open first and stat the handle: a concurrent overwrite or delete cannot change what we stream.
      const fh = await openIfFile(objectPath(key));
      if (!fh) return null;
      try {
        const st = await fh.stat();
        const info = infoOf(key, st, await readSidecar(key));
        const range = getOptions.range ? clampRange(key, getOptions.range, st.size) : undefined;
        const body = fh.createReadStream(range ? { start: range.start, end: range.end } : {});
        const object: BlobObject = { ...info, body, ...(range ? { range } : {}) };
        return object;
      } catch (err) {
        await fh.close();
        throw err;
      }
    },

    async head(key) {
      assertValidKey(key);
      const fh = await openIfFile(objectPath(key));
      if (!fh) return null;
      try {
        return infoOf(key, await fh.stat(), await readSidecar(key));
      } finally {
        await fh.close();
      }
    },

    async delete(key) {
      assertValidKey(key);
      await rm(objectPath(key), { force: true });
      await rm(metaPath(key), { force: true });
    },

    list(prefix) {
      assertValidPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const startRel = slash >= 0 ? prefix.slice(0, slash) : '';
      return walk(startRel ? path.join(objectsDir, ...startRel.split('/')) : objectsDir, startRel, prefix);
    },

    async ping() {
      await access(objectsDir, constants.R_OK | constants.W_OK);
      await access(tmpDir, constants.W_OK);
    },

    async close() {},
  };
}

async function fsyncFile(file: string) {
  const fh = await open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function openIfFile(file: string) {
  try {
    const fh = await open(file, 'r');
    if ((await fh.stat()).isFile()) return fh;
    await fh.close();
    return null;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

async function* walk(dir: string, rel: string, prefix: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const entry of entries) {
    const key = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(path.join(dir, entry.name), key, prefix);
    } else if (entry.isFile() && key.startsWith(prefix)) {
      yield key;
    }
  }
}

const isMissing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
