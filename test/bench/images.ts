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
 * BENCH_HIT_SECONDS (default 10; 0 skips the hit runs), BENCH_CASES (any of jpeg, png, webp, avif and
 * the newer operations gauto, qauto, trim, watermark, animated, and ipx for ipx's misses; default all). Each newer one is
 * timed against raw sharp doing its steps as the service does them (a first pass to raw pixels
 * where the service takes one).
 * The npm script sets UV_THREADPOOL_SIZE=16, as a worker deployment should: sharp jobs occupy
 * libuv threads for their whole run, and the blob store's file I/O (fsync) must not queue behind them.
 * Uses the adapters the environment selects, like the product (embedded when none is set).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Agent, createServer, get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp, { type Sharp } from 'sharp';
import { buildAssetUrl, type AssetTransformationInput, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import type { ImagePresetOptions } from '../../shared/assets/types.js';
import { projectRoot } from '../../shared/paths.js';
import { startTestApp } from '../support/harness.js';
import { cpuDuring, type CpuSpent } from './cpu-time.js';
import { autocannonLoad, wrkLoad, type LoadResult } from './load-generators.js';

const opsPer = Number(process.env.BENCH_OPS ?? 40);
const rounds = Number(process.env.BENCH_ROUNDS ?? 16);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const hitSeconds = Number(process.env.BENCH_HIT_SECONDS ?? 10);
const selectedCases = (process.env.BENCH_CASES ?? 'jpeg,png,webp,avif,gauto,qauto,trim,watermark,animated,ipx').split(',').map((c) => c.trim());
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

  /**
   * One line: raw sharp against service misses of the same work, in alternating rounds. Each
   * round uploads a fresh copy (`source`) and asks `urlsOf` for its new derivative URLs.
   */
  async function compare(name: string, source: () => Promise<UrlAsset>, rawTask: (i: number) => Promise<unknown>, urlsOf: (asset: UrlAsset) => string[]): Promise<string> {
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
      urls = urlsOf(await source());
      const runRaw = () => cpuDuring(() => throughput(opsPer, async (i) => void (await rawTask(i))), { postgres: false });
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
      process.stderr.write(`  ${name.trim()} round ${round + 1}/${rounds}: raw ${raw.result.toFixed(1)} ops/s, miss ${miss.result.toFixed(1)} req/s\n`);
    }
    const n = rounds * opsPer;
    const raw = n / rawSeconds;
    const miss = n / missSeconds;
    const spread = `rounds ${(Math.min(...roundRatios) * 100).toFixed(0)}–${(Math.max(...roundRatios) * 100).toFixed(0)}%`;
    console.log(`${name}: raw sharp ${raw.toFixed(1)} ops/s · service miss ${miss.toFixed(1)} req/s (${((miss / raw) * 100).toFixed(0)}% of raw; ${spread})`);
    console.log(`  CPU per op: raw ${((rawCpu / n) * 1000).toFixed(1)} ms · miss ${((missCpu / n) * 1000).toFixed(1)} ms (raw's is ${((rawCpu / missCpu) * 100).toFixed(0)}% of the miss's)`);
    return urls[0];
  }

  const sign = (asset: UrlAsset, transformation: AssetTransformationInput, overlayAsset?: UrlAsset) =>
    buildAssetUrl({ asset, orgId: org.orgId, transformation, overlayAsset }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets })!;

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
    const urlsOf = (asset: UrlAsset) =>
      qualities.map((quality, i) =>
        sign(
          asset,
          c.preset
            ? { preset: c.preset, quality }
            : c.format === 'png'
              ? { width: 800 - i, height: 600, resize: 'FILL' }
              : { width: 800, height: 600, resize: 'FILL', quality, ...(c.format === 'avif' ? { imageFormat: 'AVIF' as const } : {}) },
        ),
      );
    const first = await compare(c.name, () => upload(c.fixture), rawTask, urlsOf);
    hitUrl ||= first;
  }

  // The newer operations, each against raw sharp doing the same steps (as transform-image does them).
  const open = { autoOrient: true, limitInputPixels: 50_000_000 } as const;
  const rawPixels = async (img: Sharp) => {
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  };
  if (selectedCases.includes('gauto')) {
    await compare(
      'JPEG → 600×800 g_auto FILL (JPEG)',
      () => upload('the-mouse.jpg'),
      (i) => sharp(jpeg, open).resize({ width: 600, height: 800, fit: 'cover', position: 'attention' }).toColourspace('srgb').jpeg({ quality: qualities[i % qualities.length] }).toBuffer(),
      (asset) => qualities.map((quality) => sign({ ...asset, focalPoint: null }, { width: 600, height: 800, resize: 'FILL', smartCrop: 'AUTO', quality })),
    );
  }
  if (selectedCases.includes('qauto')) {
    // q_auto fixes the quality: the width varies instead
    await compare(
      'JPEG → 800×600 FILL q_auto (WebP)',
      () => upload('the-mouse.jpg'),
      (i) => sharp(jpeg, open).resize({ width: 800 - (i % opsPer), height: 600, fit: 'cover' }).toColourspace('srgb').webp({ quality: 75 }).toBuffer(),
      (asset) => qualities.map((_q, i) => sign(asset, { width: 800 - i, height: 600, resize: 'FILL', autoQuality: true, imageFormat: 'WEBP' })),
    );
  }
  if (selectedCases.includes('trim')) {
    await compare(
      'JPEG → cp + t_10 + 800 wide (JPEG)',
      () => upload('the-mouse.jpg'),
      async (i) => {
        const cut = await rawPixels(sharp(jpeg, open).extract({ left: 960, top: 600, width: 1920, height: 1200 }).toColourspace('srgb'));
        const trimmed = await rawPixels(cut.trim({ threshold: 10 }));
        return trimmed.resize({ width: 800, height: 8192, fit: 'inside', withoutEnlargement: true }).toColourspace('srgb').jpeg({ quality: qualities[i % qualities.length] }).toBuffer();
      },
      (asset) => qualities.map((quality) => sign(asset, { width: 800, cropPixels: { x: 960, y: 600, width: 1920, height: 1200 }, trim: 10, quality })),
    );
  }
  if (selectedCases.includes('watermark')) {
    const logo = await upload('goldfish.png');
    await compare(
      'JPEG → 800 wide + PNG watermark (JPEG)',
      () => upload('the-mouse.jpg'),
      async (i) => {
        const base = sharp(jpeg, open).resize({ width: 800, height: 8192, fit: 'inside', withoutEnlargement: true });
        const layer = await sharp(png, open).resize({ width: 200, height: 500, fit: 'inside' }).toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        for (let a = 3; a < layer.data.length; a += 4) layer.data[a] = Math.round(layer.data[a] * 0.6);
        const at = { left: 800 - layer.info.width - 16, top: 500 - layer.info.height - 16 };
        return base
          .composite([{ input: layer.data, raw: { width: layer.info.width, height: layer.info.height, channels: 4 }, ...at }])
          .toColourspace('srgb')
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: qualities[i % qualities.length] })
          .toBuffer();
      },
      (asset) => qualities.map((quality) => sign(asset, { width: 800, quality, overlay: { assetId: logo.id, opacity: 0.6, scale: 0.25, offsetX: 16, offsetY: 16 } }, logo)),
    );
  }
  if (selectedCases.includes('animated')) {
    // Twelve 480×300 frames of the photograph: an animated GIF kept animated as WebP.
    const still = await sharp(jpeg).resize(960).png().toBuffer();
    const frames = await Promise.all(Array.from({ length: 12 }, (_, f) => sharp(still).extract({ left: f * 40, top: 0, width: 480, height: 300 }).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } }).gif({ delay: 80 }).toBuffer();
    const uploadGif = async () =>
      (await app.json('/management/v1/assets?fileName=walk.gif', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(gif) })).body.result as UrlAsset;
    await compare(
      'GIF, 12 frames → 240 wide (animated WebP)',
      uploadGif,
      (i) => sharp(gif, { animated: true, limitInputPixels: 50_000_000 }).resize({ width: 240, height: 8192, fit: 'inside', withoutEnlargement: true }).webp({ quality: qualities[i % qualities.length] }).toBuffer(),
      (asset) => qualities.map((quality) => sign(asset, { width: 240, quality, imageFormat: 'WEBP' })),
    );
  }

  if (selectedCases.includes('ipx')) {
    // ipx (an open-source image server from npm, on its own sharp) serving the same fixtures from
    // disk in this process, without a cache: every request transforms, like a Folio miss. The same
    // work as Folio's URLs, alternating rounds, requests per second at the same concurrency.
    const { createIPX, createIPXNodeServer, ipxFSStorage } = await import('ipx');
    const ipx = createIPX({ storage: ipxFSStorage({ dir: path.join(projectRoot, 'test/fixtures/images') }) });
    const ipxServer = createServer(createIPXNodeServer(ipx));
    await new Promise<void>((resolve) => ipxServer.listen(0, '127.0.0.1', resolve));
    const ipxBase = `http://127.0.0.1:${(ipxServer.address() as AddressInfo).port}`;
    const rateOf = async (urls: string[]) =>
      throughput(opsPer, async (i) => {
        const res = await get(urls[i]);
        if (res.statusCode !== 200) throw new Error(`${urls[i]}: ${res.statusCode}`);
      });
    for (const [name, folio, ipxOps] of [
      ['JPEG → 800×600 FILL (JPEG)', (q: number): AssetTransformationInput => ({ width: 800, height: 600, resize: 'FILL', quality: q }), (q: number) => `s_800x600,fit_cover,q_${q},f_jpeg`],
      ['JPEG → 600×800 attention FILL (JPEG)', (q: number): AssetTransformationInput => ({ width: 600, height: 800, resize: 'FILL', smartCrop: 'AUTO', quality: q }), (q: number) => `s_600x800,fit_cover,pos_attention,q_${q},f_jpeg`],
    ] as const) {
      let folioSeconds = 0;
      let ipxSeconds = 0;
      for (let round = -1; round < rounds; round++) {
        const asset = { ...(await upload('the-mouse.jpg')), focalPoint: null };
        const folioUrls = qualities.map((q) => sign(asset, folio(q)));
        const ipxUrls = qualities.map((q) => `${ipxBase}/${ipxOps(q)}/the-mouse.jpg`);
        let folioRate: number;
        let ipxRate: number;
        if (round % 2 === 0) {
          folioRate = await rateOf(folioUrls);
          ipxRate = await rateOf(ipxUrls);
        } else {
          ipxRate = await rateOf(ipxUrls);
          folioRate = await rateOf(folioUrls);
        }
        if (round < 0) continue;
        folioSeconds += opsPer / folioRate;
        ipxSeconds += opsPer / ipxRate;
      }
      const n = rounds * opsPer;
      console.log(`${name}: Folio miss ${(n / folioSeconds).toFixed(1)} req/s · ipx ${(n / ipxSeconds).toFixed(1)} req/s (Folio ${((ipxSeconds / folioSeconds) * 100).toFixed(0)}% of ipx)`);
    }
    await new Promise((resolve) => ipxServer.close(resolve));
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
