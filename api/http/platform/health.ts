import { Router } from 'express';
import { requireMetricsToken } from '../auth.js';
import { JOB_NAMES } from '../../../shared/job-names.js';
import type { Services } from '../../../shared/services.js';

const CHECK_TIMEOUT_MS = 2000;

async function check(name: string, fn: () => Promise<void>): Promise<{ name: string; ok: boolean; error?: string; ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { name, ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { name, ok: false, error: err instanceof Error ? err.message : String(err), ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness, readiness (every dependency named with its state) and Prometheus metrics. */
export function healthRoutes(services: Services): Router {
  const r = Router();

  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  /**
   * Readiness is what a load balancer needs to know: can this process serve its core traffic
   * (GraphQL and REST), which needs Postgres alone. Another dependency down (S3, ClickHouse,
   * Redis) degrades only the features that use it, so it is reported in the body with 200
   * ('degraded') instead of taking every instance out of the load balancer at once.
   */
  r.get('/readyz', async (req, res) => {
    // Shutting down: answered at once, so the load balancer's next probe sees it.
    if (req.app.locals.draining === true) return void res.status(503).json({ status: 'draining', dependencies: {} });
    const [database, ...others] = await Promise.all([
      check(`database (${services.db.kind})`, () => services.db.ping()),
      check(`queue (${services.queue.kind})`, () => services.queue.ping()),
      check(`blobs (${services.blobs.kind})`, () => services.blobs.ping()),
      check(`analytics (${services.analytics.kind})`, () => services.analytics.ping()),
    ]);
    const ready = database.ok;
    const status = !database.ok ? 'unavailable' : others.every((c) => c.ok) ? 'ready' : 'degraded';
    const dependencies = Object.fromEntries(
      [database, ...others].map((c) => [c.name, c.ok ? { state: 'up', ms: c.ms } : { state: 'down', ms: c.ms, error: c.error }]),
    );
    res.status(ready ? 200 : 503).json({ status, dependencies });
  });

  r.get('/metrics', requireMetricsToken, async (_req, res) => {
    const counts = await services.queue.counts([...JOB_NAMES]).catch((): Awaited<ReturnType<typeof services.queue.counts>> => ({}));
    for (const [queue, states] of Object.entries(counts)) {
      for (const [state, n] of Object.entries(states)) services.metrics.queueDepth.set({ queue, state }, n);
    }
    res.setHeader('Content-Type', services.metrics.registry.contentType);
    res.send(await services.metrics.registry.metrics());
  });

  return r;
}
