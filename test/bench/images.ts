/**
 * `npm run bench:images`: the same transforms three ways, in one process —
 *   1. raw sharp on in-memory buffers (the limit),
 *   2. the service's miss path over HTTP (signed URL → job → sharp → blob store → response),
 *   3. the service's hit path under autocannon.
 * Transforms: the JPEG and the PNG fixture → 800×600 FILL (source format), and a WebP preset
 * (JPEG → 800×600 FILL, WebP). Each miss needs a new derivative, so the quality varies over the
 * run, identically for raw sharp.
 *
 * BENCH_OPS (per transform, default 40), BENCH_CONCURRENCY (default 4), BENCH_HIT_SECONDS (default 10).
 * The npm script sets UV_THREADPOOL_SIZE=16, as a worker deployment should: sharp jobs occupy
 * libuv threads for their whole run, and the blob store's file I/O (fsync) must not queue behind them.
 * Uses the adapters the environment selects, like the product (embedded when none is set).
 */
import autocannon from 'autocannon';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import type { ImagePresetOptions } from '../../shared/assets/types.js';
import { startTestApp } from '../support/harness.js';

const opsPer = Number(process.env.BENCH_OPS ?? 40);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const hitSeconds = Number(process.env.BENCH_HIT_SECONDS ?? 10);
const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));
const qualities = Array.from({ length: opsPer }, (_, i) => 50 + (i % 50));

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
  const [jpegAsset, pngAsset] = [await upload('the-mouse.jpg'), await upload('goldfish.png')];
  const presets = new Map<string, ImagePresetOptions>([['card', { width: 800, height: 600, resize: 'FILL', format: 'webp' }]]);
  const [jpeg, png] = [await fixture('the-mouse.jpg'), await fixture('goldfish.png')];

  const cases = [
    { name: 'JPEG → 800×600 FILL (JPEG)', asset: jpegAsset, input: jpeg, format: 'jpeg' as const, preset: undefined },
    { name: 'PNG  → 800×600 FILL (PNG) ', asset: pngAsset, input: png, format: 'png' as const, preset: undefined },
    { name: 'JPEG → preset "card" (WebP)', asset: jpegAsset, input: jpeg, format: 'webp' as const, preset: 'card' },
  ];
  console.log(`${opsPer} transforms per case, ${concurrency} at a time; blob store: ${app.services.blobs.kind}, queue: ${app.services.queue.kind}`);

  let hitUrl = '';
  for (const c of cases) {
    const rawTask = async (i: number) => {
      // 1. Raw sharp: the same operations the service runs (auto-orient, cover, sRGB, encode).
      let img = sharp(c.input, { autoOrient: true, limitInputPixels: 50_000_000 }).resize({ width: 800, height: 600, fit: 'cover' }).toColourspace('srgb');
      const quality = qualities[i % qualities.length];
      img = c.format === 'jpeg' ? img.jpeg({ quality }) : c.format === 'png' ? img.png() : img.webp({ quality });
      await img.toBuffer();
    };
    // 2. Service misses: every URL is a new derivative (PNG ignores quality, so its width varies instead).
    const urls = qualities.map((quality, i) =>
      buildAssetUrl(
        {
          asset: c.asset,
          orgId: org.orgId,
          transformation: c.preset ? { preset: c.preset, quality } : c.format === 'png' ? { width: 800 - i, height: 600, resize: 'FILL' } : { width: 800, height: 600, resize: 'FILL', quality },
        },
        { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets },
      )!,
    );
    const missTask = async (i: number) => {
      const res = await fetch(urls[i]);
      if (res.headers.get('x-cache') !== 'MISS') throw new Error(`expected a miss, got ${res.status} ${res.headers.get('x-cache')}`);
      await res.arrayBuffer();
    };
    // Alternate rounds of both so that load from anything else on the machine hits both alike.
    const rounds = 4;
    const per = Math.ceil(opsPer / rounds);
    let rawSeconds = 0;
    let missSeconds = 0;
    for (let round = 0; round < rounds; round++) {
      const offset = round * per;
      const count = Math.min(per, opsPer - offset);
      if (count <= 0) break;
      rawSeconds += count / (await throughput(count, (i) => rawTask(offset + i)));
      missSeconds += count / (await throughput(count, (i) => missTask(offset + i)));
    }
    const raw = opsPer / rawSeconds;
    const miss = opsPer / missSeconds;
    console.log(`${c.name}: raw sharp ${raw.toFixed(1)} ops/s · service miss ${miss.toFixed(1)} req/s (${((miss / raw) * 100).toFixed(0)}% of raw)`);
    hitUrl ||= urls[0];
  }

  // 3. Hits: one derivative, many connections.
  // The load generator runs in its own thread so it does not share the server's event loop.
  const hit = await autocannon({ url: hitUrl, connections: 32, pipelining: 1, duration: hitSeconds, workers: 1 });
  const bytes = hit.throughput.average;
  console.log(`hit (autocannon, 32 connections, ${hitSeconds} s): ${hit.requests.average.toFixed(0)} req/s, p99 ${hit.latency.p99} ms, ${(bytes / 1e6).toFixed(1)} MB/s, non-2xx ${hit.non2xx}`);
} finally {
  await app.close();
}
