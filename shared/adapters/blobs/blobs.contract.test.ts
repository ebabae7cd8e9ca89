import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3 } from '../../../test/support/test-s3.js';
import { isAppError } from '../../errors/index.js';
import { createFsBlobStore } from './fs.js';
import { RangeNotSatisfiableError, type BlobStore } from './blob-store.js';
import { assetDerivativeKey, derivativeKey, ingestSpoolKey, originalKey } from './keys.js';
import { createS3BlobStore } from './s3.js';

/** Everything a store needs to be tested, and `leftovers` to look behind the interface. */
interface Subject {
  store: BlobStore;
  /** Files or uploads a failed put may have left behind (temp files, multipart parts). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

const implementations: [string, () => Promise<Subject>][] = [
  [
    'fs',
    async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), 'folio-blobs-'));
      const store = createFsBlobStore({ root });
      return {
        store,
        leftovers: async () => readdir(path.join(root, 'tmp')),
        close: async () => {
          await store.close();
          await rm(root, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    process.env.FOLIO_TEST_S3_ENDPOINT ? 's3 (RADOS Gateway)' : 's3 (s3rver)',
    async () => {
      const s3 = await startTestS3();
      const store = createS3BlobStore(s3.s3Config, { partSize: 5 * 1024 * 1024 });
      return {
        store,
        // A half-finished upload must leave no multipart upload behind (the RADOS Gateway lists
        // them; s3rver cannot, and keeps nothing of an aborted one).
        leftovers: async () => (await s3.openUploads()) ?? [],
        close: async () => {
          await store.close();
          await s3.close();
        },
      };
    },
  ],
];

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function listAll(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of store.list(prefix)) keys.push(k);
  return keys.sort();
}

/** A stream of `chunks` random 64 KiB chunks, produced lazily (never one big buffer). */
function randomStream(chunks: number, hash: ReturnType<typeof createHash>, failAfter?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent === failAfter) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (sent === chunks) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(64 * 1024);
      hash.update(chunk);
      sent++;
      this.push(chunk);
    },
  });
}

describe.each(implementations)('BlobStore contract: %s', (_name, open) => {
  let subject: Subject;
  let store: BlobStore;
  // Every test works under its own org folder so the tests stay independent.
  let n = 0;
  const org = () => `org${++n}x${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    subject = await open();
    store = subject.store;
  });
  afterAll(async () => {
    await subject?.close();
  });

  it('round-trips a Buffer with its content type', async () => {
    const key = originalKey(org(), 'asset1', 'v1');
    const data = Buffer.from('hello, folio');
    const info = await store.put(key, data, { contentType: 'text/plain; charset=utf-8' });
    expect(info).toMatchObject({ key, size: data.length });

    const got = await store.get(key);
    expect(got).not.toBeNull();
    expect(got!.contentType).toBe('text/plain; charset=utf-8');
    expect(got!.size).toBe(data.length);
    expect(got!.range).toBeUndefined();
    expect(await readAll(got!.body)).toEqual(data);
  });

  it('round-trips a cache object written without durability', async () => {
    const key = originalKey(org(), 'asset1', 'cache');
    const data = Buffer.from('rebuildable');
    await store.put(key, data, { contentType: 'image/jpeg', durable: false });
    const got = await store.get(key);
    expect(got!.contentType).toBe('image/jpeg');
    expect(await readAll(got!.body)).toEqual(data);
  });

  it.each([true, false])('keeps the content type of a key whose extension names another type (durable: %s)', async (durable) => {
    // The folder store writes no sidecar when the extension names the type; an overwrite with
    // another type must not be shadowed by the extension, nor the other way round.
    const key = assetDerivativeKey(org(), 'asset1', `h${String(durable)}`, 'webp');
    await store.put(key, Buffer.from('webp bytes'), { contentType: 'image/webp', durable });
    expect((await store.head(key))?.contentType).toBe('image/webp');
    await store.put(key, Buffer.from('not webp'), { contentType: 'text/plain', durable });
    expect((await store.get(key))?.contentType).toBe('text/plain');
    await store.put(key, Buffer.from('webp again'), { contentType: 'image/webp', durable });
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/webp');
    expect((await readAll(got!.body)).toString()).toBe('webp again');
    await store.put(key, Buffer.from('untyped'), { durable });
    expect((await store.head(key))?.contentType).toBe('application/octet-stream');
  });

  it('defaults the content type to application/octet-stream', async () => {
    const key = originalKey(org(), 'asset1', 'v1');
    await store.put(key, Buffer.from([1, 2, 3]));
    expect((await store.head(key))?.contentType).toBe('application/octet-stream');
  });

  it('streams a multi-megabyte body in and out', async () => {
    const key = derivativeKey(org(), 'ab34cd56ef');
    const inHash = createHash('sha256');
    // 12 MiB: more than two multipart parts on S3.
    const info = await store.put(key, randomStream(192, inHash), { contentType: 'image/webp' });
    expect(info.size).toBe(192 * 64 * 1024);

    const got = await store.get(key);
    const outHash = createHash('sha256');
    for await (const c of got!.body) outHash.update(c as Buffer);
    expect(outHash.digest('hex')).toBe(inHash.digest('hex'));
    expect(got!.contentType).toBe('image/webp');
    expect(got!.size).toBe(192 * 64 * 1024);
  });

  it('overwrites an object in place', async () => {
    const key = originalKey(org(), 'a', 'v');
    await store.put(key, Buffer.from('first'), { contentType: 'text/plain' });
    await store.put(key, Buffer.from('second!'), { contentType: 'text/markdown' });
    const got = await store.get(key);
    expect((await readAll(got!.body)).toString()).toBe('second!');
    expect(got!.contentType).toBe('text/markdown');
  });

  describe('ranges', () => {
    const data = Buffer.from('0123456789abcdefghij'); // 20 bytes
    let key: string;
    beforeAll(async () => {
      key = originalKey(org(), 'ranged', 'v1');
      await store.put(key, data, { contentType: 'text/plain' });
    });

    it('reads from a start to the end', async () => {
      const got = await store.get(key, { range: { start: 15 } });
      expect(got!.range).toEqual({ start: 15, end: 19 });
      expect(got!.size).toBe(20);
      expect((await readAll(got!.body)).toString()).toBe('fghij');
    });

    it('reads an inclusive start–end range', async () => {
      const got = await store.get(key, { range: { start: 2, end: 5 } });
      expect(got!.range).toEqual({ start: 2, end: 5 });
      expect((await readAll(got!.body)).toString()).toBe('2345');
      expect(got!.contentType).toBe('text/plain');
    });

    it('clamps an end beyond the object', async () => {
      const got = await store.get(key, { range: { start: 18, end: 1000 } });
      expect(got!.range).toEqual({ start: 18, end: 19 });
      expect((await readAll(got!.body)).toString()).toBe('ij');
    });

    it('refuses a start at or beyond the end', async () => {
      await expect(store.get(key, { range: { start: 20 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      await expect(store.get(key, { range: { start: 500, end: 600 } })).rejects.toMatchObject({ size: 20 });
    });

    it('refuses a malformed range with a 400', async () => {
      await expect(store.get(key, { range: { start: 5, end: 2 } })).rejects.toMatchObject({ status: 400 });
      await expect(store.get(key, { range: { start: -1 } })).rejects.toMatchObject({ status: 400 });
    });
  });

  it('heads an object without reading it', async () => {
    const key = originalKey(org(), 'h', 'v');
    await store.put(key, Buffer.alloc(1234, 7), { contentType: 'image/png' });
    const info = await store.head(key);
    expect(info).toMatchObject({ key, size: 1234, contentType: 'image/png' });
    expect(info!.etag).toBeTruthy();
  });

  it('answers null for a missing key on get and head', async () => {
    const key = originalKey(org(), 'missing', 'v');
    expect(await store.get(key)).toBeNull();
    expect(await store.get(key, { range: { start: 0 } })).toBeNull();
    expect(await store.head(key)).toBeNull();
  });

  it('deletes, and deleting again is not an error', async () => {
    const key = originalKey(org(), 'd', 'v');
    await store.put(key, Buffer.from('x'));
    await store.delete(key);
    expect(await store.head(key)).toBeNull();
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
    await expect(store.delete(originalKey(org(), 'never', 'v'))).resolves.toBeUndefined();
  });

  it('lists keys by prefix, including a partial last segment', async () => {
    const o = org();
    const keys = [
      originalKey(o, 'a1', 'v1'),
      originalKey(o, 'a1', 'v2'),
      originalKey(o, 'a2', 'v1'),
      originalKey(o, 'b1', 'v1'),
      ingestSpoolKey(o, 'dist1', 'batch1'),
    ];
    for (const k of keys) await store.put(k, Buffer.from(k));
    expect(await listAll(store, `originals/${o}/`)).toEqual(keys.slice(0, 4).sort());
    expect(await listAll(store, `originals/${o}/a1/`)).toEqual([keys[0], keys[1]].sort());
    expect(await listAll(store, `originals/${o}/a`)).toEqual(keys.slice(0, 3).sort());
    expect(await listAll(store, `ingest/${o}/`)).toEqual([keys[4]]);
    expect(await listAll(store, `originals/${o}/zzz/`)).toEqual([]);
    const everything = await listAll(store, '');
    for (const k of keys) expect(everything).toContain(k);
  });

  it('lists past one page of results', async () => {
    const o = org();
    const keys = Array.from({ length: 1005 }, (_, i) => `ingest/${o}/d/${String(i).padStart(5, '0')}`);
    // Small batches: s3rver and the disk are both happier than with 1005 parallel writes.
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, Buffer.from('1'))));
    }
    expect(await listAll(store, `ingest/${o}/`)).toEqual(keys);
  });

  it('leaves nothing behind when the body stream fails midway', async () => {
    const key = originalKey(org(), 'broken', 'v1');
    // 7 MiB sent before the failure: past the first multipart part on S3.
    await expect(store.put(key, randomStream(1000, createHash('md5'), 112))).rejects.toThrow();
    expect(await store.get(key)).toBeNull();
    expect(await store.head(key)).toBeNull();
    expect(await listAll(store, key.slice(0, key.lastIndexOf('/') + 1))).toEqual([]);
    expect(await subject.leftovers()).toEqual([]);
  });

  it('keeps the previous object when an overwrite fails midway', async () => {
    const key = originalKey(org(), 'keep', 'v1');
    await store.put(key, Buffer.from('old'), { contentType: 'text/plain' });
    await expect(store.put(key, randomStream(100, createHash('md5'), 3))).rejects.toThrow();
    const got = await store.get(key);
    expect((await readAll(got!.body)).toString()).toBe('old');
    expect(await subject.leftovers()).toEqual([]);
  });

  it.each([
    ['a parent segment', 'originals/../etc/passwd'],
    ['an absolute path', '/etc/passwd'],
    ['an empty segment', 'originals//x'],
    ['a trailing slash', 'originals/x/'],
    ['a dot segment', 'originals/./x'],
    ['a backslash', 'originals\\..\\x'],
    ['an empty key', ''],
  ])('refuses a key with %s', async (_what, key) => {
    const refused = (p: Promise<unknown>) =>
      expect(p).rejects.toSatisfy((e: unknown) => isAppError(e) && e.status === 400);
    // Validation happens before any I/O, so these reject synchronously or asynchronously alike.
    await refused((async () => store.put(key, Buffer.from('x')))());
    await refused((async () => store.get(key))());
    await refused((async () => store.head(key))());
    await refused((async () => store.delete(key))());
  });

  it('refuses a list prefix that climbs out', async () => {
    expect(() => store.list('../../')).toThrow();
    expect(() => store.list('/abs')).toThrow();
  });

  it('pings', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe('key locator', () => {
  it('builds the documented layout', () => {
    expect(originalKey('o1', 'a1', 'v1')).toBe('originals/o1/a1/v1');
    expect(derivativeKey('o1', 'abcdef0123')).toBe('derivatives/o1/ab/abcdef0123');
    expect(ingestSpoolKey('o1', 'd1', 'b1')).toBe('ingest/o1/d1/b1');
  });

  it('refuses ids that would change the layout', () => {
    expect(() => originalKey('o1/..', 'a', 'v')).toThrow();
    expect(() => originalKey('o1', '..', 'v')).toThrow();
    expect(() => derivativeKey('o1', 'a/b')).toThrow();
    expect(() => ingestSpoolKey('o1', 'd', '')).toThrow();
  });
});
