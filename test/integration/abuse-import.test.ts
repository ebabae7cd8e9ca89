import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliBomb, repeatedZlibBomb } from '../support/compression-bombs.js';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../support/event-loop-guard.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Hostile import bodies from one tenant, with the documented limit (IMPORT_BODY_LIMIT_BYTES, its
 * default): a gigabyte bomb is refused in seconds without holding the event loop, and an import
 * whose client went away stops instead of working on for nobody.
 */
let app: TestApp;
let org: TestOrg;
const GiB = 1024 ** 3;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  org = await app.createOrg('Import abuse');
  await app.json('/management/v1/sites', { token: org.manageToken, body: { id: 'web', name: 'Web' } });
  await app.json('/management/v1/models/person', { method: 'PUT', token: org.manageToken, body: { titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }] } });
});
afterAll(async () => app?.close());

const latestImport = async () => (await app.json('/management/v1/import', { token: org.manageToken })).body.result;

describe('decompression bombs on the import endpoint', () => {
  it.each([
    ['gzip', () => repeatedZlibBomb('gzip', GiB)],
    ['deflate', () => repeatedZlibBomb('deflate', GiB)],
    ['br', () => brotliBomb(GiB)],
  ])('%s of 1 GiB: 413 in the envelope within seconds, without blocking the event loop', async (encoding, make) => {
    const bomb = await make();
    let seconds = 0;
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(async () => {
      // the time of the attempt that counts (the guard may take a second one)
      const started = performance.now();
      const answer = await app.json('/management/v1/import', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(bomb), headers: { 'content-type': 'application/x-ndjson', 'content-encoding': encoding } });
      seconds = (performance.now() - started) / 1000;
      return answer;
    });
    console.log(`import ${encoding} bomb (${bomb.length} bytes → 1 GiB): ${res.status} in ${seconds.toFixed(1)} s, event loop blocked at most ${maxBlockedMs.toFixed(0)} ms`);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, result: null, errors: [expect.stringContaining(`exceeds the limit of ${app.services.config.limits.importBytes} bytes`)] });
    // decoding stops at the limit (256 MiB): about a second on an idle machine; the whole
    // gigabyte took minutes before
    expect(seconds).toBeLessThan(30);
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
    expect(await latestImport()).toMatchObject({ state: 'stopped', succeeded: 0, reason: expect.stringContaining('exceeds the limit') });
  });

  it('a plain body declared larger than the limit: 413 before anything is read', async () => {
    const limit = app.services.config.limits.importBytes;
    const res = await fetch(`${app.baseUrl}/management/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.manageToken}`, 'content-type': 'application/x-ndjson', 'content-length': String(limit + 1) },
      body: new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(16)) }),
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(res.status).toBe(413);
  });
});

describe('an import whose client disconnects', () => {
  it('stops after the batch being written; the next status read reports what was applied, and it is all there', async () => {
    const total = 60_000;
    const lines = Array.from({ length: total }, (_, i) => JSON.stringify({ type: 'entry', id: `gone-${i}`, model: 'person', siteId: 'web', fields: { name: `Gone ${i}` } }));
    const body = gzipSync(Buffer.from(lines.join('\n') + '\n'));
    const client = new AbortController();
    const request = fetch(`${app.baseUrl}/management/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.manageToken}`, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body,
      signal: client.signal,
    }).catch((err: unknown) => err);
    // the client gives up once the import is under way (its first progress is recorded)
    for (let run = await latestImport(); !(run?.state === 'running' && run.lines > 0); run = await latestImport()) {
      await new Promise((r) => setTimeout(r, 100));
    }
    client.abort();
    await request;
    const gaveUp = performance.now();
    let run = await latestImport();
    while (run.state === 'running' && performance.now() - gaveUp < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      run = await latestImport();
    }
    console.log(`import of ${total} lines, client gone: ${run.state} ${((performance.now() - gaveUp) / 1000).toFixed(2)} s later after ${run.lines} lines`);
    expect(run).toMatchObject({ state: 'stopped', reason: expect.stringContaining('the client disconnected'), failed: 0 });
    expect(run.succeeded).toBeLessThan(total);
    const count = async () => Number((await app.services.db.query<{ n: string }>("SELECT count(*) AS n FROM entries WHERE org_id = $1 AND id LIKE 'gone-%'", [org.orgId])).rows[0].n);
    // whole batches: what the status says was applied is what is there, and nothing more comes
    expect(await count()).toBe(run.succeeded);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await count()).toBe(run.succeeded);
  });
});
