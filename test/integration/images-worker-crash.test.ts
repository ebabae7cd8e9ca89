import express from 'express';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/http/error-handler.js';
import { imageRoutes } from '../../api/http/img/index.js';
import { requestId } from '../../api/http/request-context.js';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { derivativeKeyOf } from '../../shared/assets/derivative-source.js';
import { runTransformJob } from '../../shared/assets/run-transform-job.js';
import { parseImagePath } from '../../shared/assets/url-grammar.js';
import type { BlobStore } from '../../shared/adapters/blobs/index.js';
import { randomBase62 } from '../../shared/ids.js';
import { TRANSFORM_STALLED_AFTER_MS } from '../../shared/assets/image-transform-job.js';
import { createQueue, type JobQueue } from '../../shared/adapters/queue/index.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { createAssetCaches } from '../../shared/assets/asset-caches.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

/**
 * A worker that dies in the middle of a transform: the job is retried and the derivative is
 * written exactly once. With Redis (BullMQ) the worker is a real separate process, SIGKILLed
 * mid-transform; its stalled job goes to another worker. The in-process queue has no separate
 * worker to kill, so there the attempt dies at the same point through an injected fault.
 */
describe('a worker dying during a transform', () => {
  let app: TestApp;
  let org: TestOrg;
  let asset: UrlAsset;

  beforeAll(async () => {
    app = await startTestApp({ workers: false });
    org = await app.createOrg();
    const res = await app.json('/management/v1/assets', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(await fixture('goldfish.png')) });
    asset = res.body.result;
  });
  afterAll(async () => app?.close());

  /** Serves /img with this queue and returns the response to one derivative request. */
  async function requestThrough(queue: JobQueue, width: number, onServer: (url: string) => Promise<void>) {
    const server = express().use(requestId).use(imageRoutes({ ...app.services, queue }, { timeoutMs: 30_000, attempts: 3 })).use(errorHandler(app.services.logger)).listen(0);
    await once(server, 'listening');
    const url = buildAssetUrl({ asset, orgId: org.orgId, transformation: { width, height: 1000, resize: 'FILL' } }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() })!;
    const path = new URL(url).pathname;
    const key = derivativeKeyOf(parseImagePath(app.services.secrets.signing, path.slice('/img/'.length))).key;
    try {
      const response = fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}${path}`);
      await onServer(key);
      const res = await response;
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), key };
    } finally {
      server.close();
    }
  }

  /** Counts derivative writes to the store. */
  const countingPuts = (blobs: BlobStore, key: () => string) => {
    const counter = { puts: 0 };
    const store: BlobStore = { ...blobs, put: async (k, body, o) => ((k === key() && counter.puts++), blobs.put(k, body, o)) };
    return { store, counter };
  };

  it('retries the job and produces the derivative once', async () => {
    let derivative = '';
    if (app.services.queue.kind === 'bullmq') {
      const prefix = `folio:crash${randomBase62(8)}`;
      // The product's stall setting (TRANSFORM_STALLED_AFTER_MS), not a test-only one: the waiting
      // client gets its image within the route's first 30-s timeout.
      const queue = await createQueue(app.services.config, { prefix });
      const child = fork(fileURLToPath(new URL('./images-crash-worker.ts', import.meta.url)), {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, FOLIO_CRASH_WORKER: JSON.stringify({ redisUrl: app.services.config.redisUrl, prefix, dataDir: app.services.config.dataDir, s3: app.services.config.s3 }) },
      });
      try {
        await once(child, 'message');
        const { store, counter } = countingPuts(app.services.blobs, () => derivative);
        let transforms = 0;
        const res = await requestThrough(queue, 1200, async (key) => {
          derivative = key;
          await once(child, 'message'); // 'transform-started'
          child.kill('SIGKILL');
          await once(child, 'exit');
          expect(await app.services.blobs.head(key)).toBeNull();
          // A healthy worker takes over once the dead one's lock expires.
          queue.process(
            'image-transform',
            async (payload) => {
              transforms++;
              return runTransformJob({ blobs: store, assetCaches: createAssetCaches() }, payload);
            },
            { stalledAfterMs: TRANSFORM_STALLED_AFTER_MS },
          );
        });
        expect(res.status).toBe(200);
        expect(await sharp(res.bytes).metadata()).toMatchObject({ width: 1200, height: 1000 });
        expect([transforms, counter.puts]).toEqual([1, 1]);
      } finally {
        child.kill('SIGKILL');
        await queue.close({ timeoutMs: 1000 });
      }
    } else {
      const queue = await createQueue(app.services.config, { prefix: `folio:crash${randomBase62(8)}` });
      const { store, counter } = countingPuts(app.services.blobs, () => derivative);
      let attempts = 0;
      // The worker's own memory, apart from the API's (as in another process).
      const assetCaches = createAssetCaches();
      queue.process('image-transform', async (payload, ctx) => {
        attempts = ctx.attempt;
        derivative = payload.derivativeKey;
        // The first attempt dies after its transform, before the derivative is written.
        const blobs: BlobStore = ctx.attempt === 1 ? { ...store, put: async () => Promise.reject(new Error('worker died')) } : store;
        return runTransformJob({ blobs, assetCaches }, payload);
      });
      try {
        const res = await requestThrough(queue, 1200, async () => undefined);
        expect(res.status).toBe(200);
        expect(await sharp(res.bytes).metadata()).toMatchObject({ width: 1200, height: 1000 });
        expect([attempts, counter.puts]).toEqual([2, 1]);
      } finally {
        await queue.close({ timeoutMs: 1000 });
      }
    }
  }, 90_000);
});
