import { createUnsharedAnalyticsStore } from '../shared/adapters/clickhouse/unshared.js';
import { createLogger } from '../shared/logger.js';
import { createServices } from '../shared/services.js';
import { onShutdown } from '../shared/shutdown.js';
import { loadConfigOrExit, startOrExit } from '../shared/startup-faults.js';
import { registerWorkers } from '../workers/register.js';
import { httpShutdownSteps, startHttpServer } from './server.js';

/** Production API process: HTTP only; jobs run in `workers/main.ts` processes. */
const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
// With REDIS_URL the jobs — log lines included — run in workers/main processes; without a shared
// ClickHouse those insert into engines of their own, which this process cannot read.
const unsharedAnalytics = Boolean(config.redisUrl) && !config.clickhouseUrl;
if (unsharedAnalytics) logger.warn(`analytics unavailable: no CLICKHOUSE_URL while the workers run as separate processes; analytics answers 503 (set CLICKHOUSE_URL to a ClickHouse server every process shares)`);
const { services, drain, app } = await startOrExit(config, async () => {
  const services = await createServices(config, logger, unsharedAnalytics ? { analytics: createUnsharedAnalyticsStore() } : {});
  if (services.queue.kind === 'in-process') {
    // Without REDIS_URL no other process can take the jobs: run them here.
    logger.warn('no REDIS_URL: jobs run in this API process (set REDIS_URL to run them in workers/main)');
    registerWorkers(services);
  }
  return { services, ...(await startHttpServer(services, { port: config.port, host: config.host })) };
});
logger.info({ port: config.port, adapters: adapterKinds() }, 'api listening');

// SIGTERM (an orchestrator) waits for the load balancer to see /readyz fail; Ctrl-C does not.
onShutdown({
  logger,
  timeoutMs: config.shutdownReadinessDelayMs + config.shutdownTimeoutMs,
  steps: (signal) =>
    httpShutdownSteps({ app, drain, services, timeoutMs: config.shutdownTimeoutMs, readinessDelayMs: signal === 'SIGTERM' ? config.shutdownReadinessDelayMs : 0 }),
});

function adapterKinds() {
  return { db: services.db.kind, queue: services.queue.kind, blobs: services.blobs.kind, analytics: services.analytics.kind };
}
