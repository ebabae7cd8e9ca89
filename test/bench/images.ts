/**
 * `npm run bench:images`: the same transforms three ways —
 *   1. raw sharp on in-memory buffers, in this process (the limit),
 *   2. the service's miss path over HTTP from this process (signed URL → job → sharp → blob
 *      store → response),
 *   3. the service's hit path under autocannon (and wrk, when installed), each in its own process.
 * Transforms: the JPEG and the PNG fixture → 800×600 FILL (source format), a WebP preset
 * (JPEG → 800×600 FILL, WebP) and AVIF (JPEG → 800×600 FILL, imageFormat AVIF; AVIF encodes
 * several times slower than JPEG, so that case takes most of the run). Each miss needs a new derivative, so the quality varies over a
 * set of BENCH_OPS transforms, identically for raw sharp; each of BENCH_ROUNDS rounds runs the
 * set on a freshly uploaded copy of the fixture (new keys, cold source cache) next to a raw
 * round, in turns (raw first, then miss first), so that the machine's drift and anything else
 * running hit both alike. An untimed round of each comes first (JIT, first queries), as a
 * running server is past that. One round's ratio swings by ±10 % here (a full garbage
 * collection of 30–60 ms or the kernel writing back dirty pages, in rounds under a second
 * long), hence 16 rounds by default, each reported on stderr as it ends. Each side's CPU per
 * operation is printed too: what a miss costs beyond its transform (HTTP on both ends, the
 * job, the write to the blob store).
 * Start it a few minutes after deleting many files (a previous run's cleanup, `npm ci`, the test
 * suite) on ext4 without a journal, like this machine's root: creating a file there steps over
 * every inode freed in the last minutes (the kernel's `recently_deleted` check), which each
 * derivative written pays and raw sharp does not — measured here: 1.07 → 1.94 ms of CPU per miss
 * of a tiny image right after deleting 3,000 files.
 *
 * Each hit figure is printed next to the ceiling of its load generator on this machine: a bare
 * Node server answering the same bytes from memory, measured with the same generator and setup.
 * autocannon decodes every response body into a string, which for a binary image costs it more
 * than the server spends per request; wrk does not, so it shows what the server itself sustains.
 *
 * Then `format=auto` hits (imageFormat AUTO, a browser's `Accept: image/avif,image/webp,*∕*`)
 * against fixed-format hits of the same stored AVIF derivative, interleaved: negotiating the
 * format per request must cost nothing visible (target ±5 %).
 *
 * BENCH_OPS (per set, default 40), BENCH_ROUNDS (default 16), BENCH_CONCURRENCY (default 4),
 * BENCH_HIT_SECONDS (default 10; 0 skips the hit runs), BENCH_CASES (any of jpeg,png,webp,avif; default all).
 * The npm script sets UV_THREADPOOL_SIZE=16, as a worker deployment should: sharp jobs occupy
 * libuv threads for their whole run, and the blob store's file I/O (fsync) must not queue behind them.
 * Uses the adapters the environment selects, like the product (embedded when none is set).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Agent, createServer, get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import type { ImagePresetOptions } from '../../shared/assets/types.js';
import { projectRoot } from '../../shared/paths.js';
import { startTestApp } from '../support/harness.js';
import { cpuDuring, type CpuSpent } from './cpu-time.js';
import { autocannonLoad, wrkLoad, type LoadResult } from './load-generators.js';

const opsPer = Number(process.env.BENCH_OPS ?? 40);
const rounds = Number(process.env.BENCH_ROUNDS ?? 16);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const hitSeconds = Number(process.env.BENCH_HIT_SECONDS ?? 10);
const selectedCases = (process.env.BENCH_CASES ?? 'jpeg,png,webp,avif').split(',').map((c) => c.trim());
// from the repository root: the benchmark also runs compiled, from dist-bench/
const fixture = (name: string) => readFile(path.join(projectRoot, 'test/fixtures/images', name));
const qualities = Array.from({ length: opsPer }, (_, i) => 50 + (i % 50));

// The client of the miss runs in this process too: node:http on kept-alive connections, like
// autocannon's, rather than fetch, whose stream machinery costs more CPU than the request itself.
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
function get(url: string): Promise<IncomingMessage & { bytes: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent }, (res) => {
      // counted, not kept: a body copied into one more buffer costs this process a copy and,
      // for the PNG's 340 kB, garbage-collector work that would be billed to the service
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => {
        if (bytes !== Number(res.headers['content-length'])) reject(new Error(`${url}: ${bytes} bytes of ${res.headers['content-length']}`));
        else resolve(Object.assign(res, { bytes }));
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Runs `count` tasks, `concurrency` at a time; returns ops/s. */
async function throughput(count: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const app = await startTestApp();
try {
  const org = await app.createOrg('bench images');
  const upload = async (name: string) =>
    (await app.json('/management/v1/assets', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(await fixture(name)) })).body.result as UrlAsset;
  const presets = new Map<string, ImagePresetOptions>([['card', { width: 800, height: 600, resize: 'FILL', format: 'webp' }]]);
  const [jpeg, png] = [await fixture('the-mouse.jpg'), await fixture('goldfish.png')];

  const cases = [
    { name: 'JPEG → 800×600 FILL (JPEG)', fixture: 'the-mouse.jpg', input: jpeg, format: 'jpeg' as const, preset: undefined },
    { name: 'PNG  → 800×600 FILL (PNG) ', fixture: 'goldfish.png', input: png, format: 'png' as const, preset: undefined },
    { name: 'JPEG → preset "card" (WebP)', fixture: 'the-mouse.jpg', input: jpeg, format: 'webp' as const, preset: 'card' },
    { name: 'JPEG → 800×600 FILL (AVIF) ', fixture: 'the-mouse.jpg', input: jpeg, format: 'avif' as const, preset: undefined },
  ].filter((c) => selectedCases.includes(c.format));
  console.log(`${rounds} rounds of ${opsPer} transforms per case, ${concurrency} at a time; blob store: ${app.services.blobs.kind}, queue: ${app.services.queue.kind}`);

  let hitUrl = '';
  for (const c of cases) {
    const rawTask = async (i: number) => {
      // 1. Raw sharp: the same operations the service runs (auto-orient, cover, sRGB, encode).
      let img = sharp(c.input, { autoOrient: true, limitInputPixels: 50_000_000 }).resize({ width: 800, height: 600, fit: 'cover' }).toColourspace('srgb');
      const quality = qualities[i % qualities.length];
      img = c.format === 'jpeg' ? img.jpeg({ quality }) : c.format === 'png' ? img.png() : c.format === 'avif' ? img.avif({ quality }) : img.webp({ quality });
      await img.toBuffer();
    };
    // 2. Service misses: every URL is a new derivative (PNG ignores quality, so its width varies instead).
    const urlsOf = (asset: UrlAsset) => qualities.map((quality, i) =>
      buildAssetUrl(
        {
          asset,
          orgId: org.orgId,
          transformation: c.preset
            ? { preset: c.preset, quality }
            : c.format === 'png'
              ? { width: 800 - i, height: 600, resize: 'FILL' }
              : { width: 800, height: 600, resize: 'FILL', quality, ...(c.format === 'avif' ? { imageFormat: 'AVIF' as const } : {}) },
        },
        { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets },
      )!,
    );
    let urls: string[] = [];
    const missTask = async (i: number) => {
      const res = await get(urls[i]);
      if (res.headers['x-cache'] !== 'MISS') throw new Error(`expected a miss, got ${res.statusCode} ${res.headers['x-cache']}`);
    };
    let rawSeconds = 0;
    let missSeconds = 0;
    let rawCpu = 0;
    let missCpu = 0;
    const roundRatios: number[] = [];
    for (let round = -1; round < rounds; round++) {
      urls = urlsOf(await upload(c.fixture));
      const runRaw = () => cpuDuring(() => throughput(opsPer, rawTask), { postgres: false });
      const runMiss = () => cpuDuring(() => throughput(opsPer, missTask));
      let raw: CpuSpent<number>;
      let miss: CpuSpent<number>;
      if (round % 2 === 0) {
        raw = await runRaw();
        miss = await runMiss();
      } else {
        miss = await runMiss();
        raw = await runRaw();
      }
      if (round < 0) continue; // warm-up
      rawSeconds += opsPer / raw.result;
      missSeconds += opsPer / miss.result;
      rawCpu += raw.processSeconds + (raw.postgresSeconds ?? 0);
      missCpu += miss.processSeconds + (miss.postgresSeconds ?? 0);
      roundRatios.push(miss.result / raw.result);
      process.stderr.write(`  ${c.format} round ${round + 1}/${rounds}: raw ${raw.result.toFixed(1)} ops/s, miss ${miss.result.toFixed(1)} req/s\n`);
    }
    const n = rounds * opsPer;
    const raw = n / rawSeconds;
    const miss = n / missSeconds;
    const spread = `rounds ${(Math.min(...roundRatios) * 100).toFixed(0)}–${(Math.max(...roundRatios) * 100).toFixed(0)}%`;
    console.log(`${c.name}: raw sharp ${raw.toFixed(1)} ops/s · service miss ${miss.toFixed(1)} req/s (${((miss / raw) * 100).toFixed(0)}% of raw; ${spread})`);
    console.log(`  CPU per op: raw ${((rawCpu / n) * 1000).toFixed(1)} ms · miss ${((missCpu / n) * 1000).toFixed(1)} ms (raw's is ${((rawCpu / missCpu) * 100).toFixed(0)}% of the miss's)`);
    hitUrl ||= urls[0];
  }

  if (hitSeconds > 0 && hitUrl) {
    // 3. Hits: one derivative, many connections, from a load generator in its own process; the
    // ceiling of each generator here is the same bytes from a bare Node server (no routing, no
    // signature check, no cache lookup) on the same cores.
    const same = await fetch(hitUrl);
    const body = Buffer.from(await same.arrayBuffer());
    const contentType = same.headers.get('content-type') ?? 'application/octet-stream';
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const load = { connections: 32, seconds: hitSeconds };
    // A rate made of failed answers is no rate: any non-2xx fails the bench.
    const line = (r: LoadResult) => {
      if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx responses under load`);
      return `${r.requestsPerSecond.toFixed(0)} req/s, p99 ${r.p99Ms.toFixed(1)} ms`;
    };
    const hit = await autocannonLoad(hitUrl, load);
    const hitCeiling = await autocannonLoad(bareUrl, load);
    console.log(`hit, autocannon (own process, ${hit.workers} workers, 32 connections, ${hitSeconds} s, ${body.length}-byte ${contentType}): ${line(hit)}`);
    console.log(`  bare Node server, same bytes (autocannon's ceiling here): ${line(hitCeiling)}`);
    const wrkHit = await wrkLoad(hitUrl, load);
    const wrkCeiling = wrkHit && (await wrkLoad(bareUrl, load));
    if (wrkHit && wrkCeiling) {
      console.log(`hit, wrk (1 thread, 32 connections, ${hitSeconds} s): ${line(wrkHit)}`);
      console.log(`  bare Node server, same bytes: ${line(wrkCeiling)}`);
    } else {
      console.log('hit, wrk: not installed (apt-get install wrk), skipped');
    }
    await new Promise((resolve) => bare.close(resolve));

    // format=auto against a fixed format: one stored AVIF derivative, two URLs
    const mouse = await upload('the-mouse.jpg');
    const urlFor = (imageFormat: 'AUTO' | 'AVIF') =>
      buildAssetUrl({ asset: mouse, orgId: org.orgId, transformation: { width: 400, imageFormat } }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets })!;
    const accept = { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' };
    const [fixedUrl, autoUrl] = [urlFor('AVIF'), urlFor('AUTO')];
    for (const u of [fixedUrl, autoUrl]) {
      const res = await fetch(u, { headers: accept });
      if (res.headers.get('content-type') !== 'image/avif') throw new Error(`${u}: ${res.status} ${res.headers.get('content-type')}`);
      await res.arrayBuffer();
    }
    const slices = 4;
    const totals = { fixed: 0, auto: 0 };
    for (let i = 0; i < slices; i++) {
      for (const [name, u] of [['fixed', fixedUrl], ['auto', autoUrl]] as const) {
        const r = await autocannonLoad(u, { ...load, seconds: hitSeconds / slices, headers: accept });
        line(r);
        totals[name] += r.responses;
      }
    }
    const [fixedRate, autoRate] = [totals.fixed / hitSeconds, totals.auto / hitSeconds];
    console.log(`hit, AVIF by format=auto (Accept negotiated, Vary: Accept): ${autoRate.toFixed(0)} req/s · fixed AVIF URL: ${fixedRate.toFixed(0)} req/s (${((autoRate / fixedRate) * 100).toFixed(0)}% of fixed; ${slices} interleaved slices each)`);
  }
  console.log('targets: miss ≥ 90 % of raw sharp (AVIF included); hit ≥ 5,000 req/s; format=auto hits within ±5 % of fixed-format hits');
} finally {
  agent.destroy();
  await app.close();
}
