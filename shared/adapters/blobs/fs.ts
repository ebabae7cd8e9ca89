import { closeSync, createReadStream, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { access, constants, open, readdir, rm, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBase62 } from '../../ids.js';
import { assertValidKey, assertValidPrefix, contentTypeOfKey } from './keys.js';
import { clampRange } from './range.js';
import { DEFAULT_CONTENT_TYPE, type BlobInfo, type BlobObject, type BlobStore } from './blob-store.js';

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
 *
 * Metadata calls (open, stat, sidecar reads, renames) and small non-durable writes are
 * synchronous: on a local folder they take microseconds, while each asynchronous call's trip
 * through libuv's thread pool measured 70–300 µs of CPU here — more than the call itself, and
 * several per image miss. Object bodies are still streamed, and fsync (durable puts) stays
 * asynchronous, so nothing slow runs on the event loop.
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

  // A key whose extension names its content type (derivatives: `….webp`) needs no sidecar, which
  // saves creating a second file per derivative; any other type is written to one.
  const readSidecar = (key: string): Sidecar | null => {
    try {
      return JSON.parse(readFileSync(metaPath(key), 'utf8')) as Sidecar;
    } catch {
      const implied = contentTypeOfKey(key);
      return implied ? { contentType: implied } : null;
    }
  };
  const needsSidecar = (key: string, sidecar: Sidecar) => contentTypeOfKey(key) !== sidecar.contentType;

  /**
   * Moves a written temp object into place, its sidecar (when one was written) first: once the
   * object is visible its content type is already there. A stale sidecar of an earlier put goes.
   */
  const place = (key: string, tmpData: string, tmpMeta: string | null, sidecar: Sidecar): BlobInfo => {
    const dest = objectPath(key);
    mkdirSync(path.dirname(dest), { recursive: true });
    if (tmpMeta) {
      mkdirSync(path.dirname(metaPath(key)), { recursive: true });
      renameSync(tmpMeta, metaPath(key));
    } else {
      rmQuietly(metaPath(key));
    }
    renameSync(tmpData, dest);
    return infoOf(key, statSync(dest), sidecar);
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
      const durable = putOptions.durable !== false;
      // Derivative-sized buffers that need no fsync are written in one synchronous call.
      const small = Buffer.isBuffer(body) && !durable && body.length <= SMALL_PUT_BYTES;
      const sidecar: Sidecar = { contentType: putOptions.contentType ?? DEFAULT_CONTENT_TYPE };
      const tmpData = path.join(tmpDir, `${Date.now()}-${randomBase62(12)}`);
      const tmpMeta = `${tmpData}.json`;
      try {
        if (small) {
          writeFileSync(tmpData, body, { flag: 'wx' });
        } else {
          const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
          await pipeline(source, (await open(tmpData, 'wx')).createWriteStream());
          // durable before visible: ingest answers 2xx right after put
          if (durable) await fsyncFile(tmpData);
        }
        if (!needsSidecar(key, sidecar)) return place(key, tmpData, null, sidecar);
        if (small) writeFileSync(tmpMeta, JSON.stringify(sidecar));
        else await writeFile(tmpMeta, JSON.stringify(sidecar), { flush: durable });
        return place(key, tmpData, tmpMeta, sidecar);
      } catch (err) {
        rmQuietly(tmpData);
        rmQuietly(tmpMeta);
        throw err;
      }
    },

    async get(key, getOptions = {}) {
      assertValidKey(key);
      // Open first and stat the descriptor: a concurrent overwrite or delete cannot change what we stream.
      const opened = openIfFile(objectPath(key));
      if (!opened) return null;
      try {
        const info = infoOf(key, opened.stats, readSidecar(key));
        const range = getOptions.range ? clampRange(key, getOptions.range, opened.stats.size) : undefined;
        const body = createReadStream('', { fd: opened.fd, ...(range ? { start: range.start, end: range.end } : {}) });
        const object: BlobObject = { ...info, body, ...(range ? { range } : {}) };
        return object;
      } catch (err) {
        closeSync(opened.fd);
        throw err;
      }
    },

    async head(key) {
      assertValidKey(key);
      const stats = statIfFile(objectPath(key));
      return stats ? infoOf(key, stats, readSidecar(key)) : null;
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

/** Buffers up to this size (derivatives, posters) are written synchronously when not durable. */
const SMALL_PUT_BYTES = 4 * 1024 * 1024;

function openIfFile(file: string): { fd: number; stats: Stats } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  closeSync(fd);
  return null;
}

function statIfFile(file: string): Stats | null {
  try {
    // a missing key is common (every new derivative is looked up first): no exception for it
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats?.isFile() ? stats : null;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

function rmQuietly(file: string): void {
  try {
    // Most calls find nothing (a put with no earlier sidecar to drop): no exception thrown for that.
    if (existsSync(file)) unlinkSync(file);
  } catch {
    // best effort: a leftover temp file is harmless
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
