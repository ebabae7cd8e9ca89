import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  queueDepth: Gauge<'queue' | 'state'>;
  cacheLookups: Counter<'cache' | 'result'>;
  ingestLagSeconds: Gauge<string>;
  rateLimitFailOpen: Counter<string>;
  ingestDeadLetters: Counter<string>;
  imageMissesRefused: Counter<string>;
  /** Transforms actually run (not joined, not skipped as already done). */
  imageTransforms: Counter<'format'>;
  /** Webhook delivery attempts by result (succeeded, retrying, failed). */
  webhookAttempts: Counter<'result'>;
}

/** One registry per process (tests create several apps, so nothing is global). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'folio_http_request_duration_seconds',
      help: 'HTTP request duration by route',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'folio_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'folio_cache_lookups_total',
      help: 'Cache lookups by cache and result (hit|miss); hit ratio = hit / total',
      labelNames: ['cache', 'result'],
      registers: [registry],
    }),
    ingestLagSeconds: new Gauge({
      name: 'folio_ingest_lag_seconds',
      help: 'Age of the oldest spooled log batch not yet in ClickHouse',
      registers: [registry],
    }),
    rateLimitFailOpen: new Counter({
      name: 'folio_rate_limit_fail_open_total',
      help: 'Rate-limit decisions made from process memory because Redis did not answer',
      registers: [registry],
    }),
    ingestDeadLetters: new Counter({
      name: 'folio_ingest_dead_letters_total',
      help: 'Spooled log batches ClickHouse refused as data even alone (kept, not retried)',
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'folio_webhook_attempts_total',
      help: 'Webhook delivery attempts by result: succeeded, retrying (to be tried again), failed (the last attempt failed)',
      labelNames: ['result'],
      registers: [registry],
    }),
    imageMissesRefused: new Counter({
      name: 'folio_image_misses_refused_total',
      help: "Image transforms refused (429) because the organization used its minute's budget of megapixels",
      registers: [registry],
    }),
    imageTransforms: new Counter({ name: 'folio_image_transforms_total', help: 'Image derivatives produced by sharp', labelNames: ['format'], registers: [registry] }),
  };
}
