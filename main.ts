import { onShutdown } from './shared/shutdown.js';
import { loadConfigOrExit, startOrExit } from './shared/startup-faults.js';
import { createLogger, type Logger } from './shared/logger.js';
import { createServices, type Services } from './shared/services.js';
import { httpShutdownSteps, startHttpServer } from './api/server.js';
import { registerWorkers } from './workers/register.js';
import { seedDemo } from './shared/demo/seed-demo.js';
import { demoBanner } from './shared/demo/demo-banner.js';

/**
 * `npm start`: the API and the workers in one process. With no service variables everything is
 * embedded under DATA_DIR (PGlite, local blobs, in-process queue, chDB); each variable that is
 * set swaps in its production adapter.
 */
const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const started = performance.now();
logger.info({ dataDir: config.dataDir }, 'starting folio');
const { services, demoLines, drain, app } = await startOrExit(config, async () => {
  const services = await createServices(config, logger);
  registerWorkers(services);
  const demoLines = await seedDemoOnFirstStart(services, logger);
  return { services, demoLines, ...(await startHttpServer(services, { port: config.port, host: config.host })) };
});

const adapters = { db: services.db.kind, queue: services.queue.kind, blobs: services.blobs.kind, analytics: services.analytics.kind };
logger.info({ port: config.port, adapters, startupMs: Math.round(performance.now() - started) }, 'folio ready');

const base = config.publicBaseUrl;
const lines = [
  '',
  `Folio is running at ${base}`,
  `  adapters: database=${adapters.db} queue=${adapters.queue} blobs=${adapters.blobs} analytics=${adapters.analytics}`,
  services.adminTokenFile
    ? `  platform admin token: in ${services.adminTokenFile} (use it for /admin/v1)`
    : services.adminToken
      ? '  platform admin token: PLATFORM_ADMIN_TOKEN'
      : '  platform admin API closed: set PLATFORM_ADMIN_TOKEN to open it',
  `  health: ${base}/readyz   OpenAPI: ${base}/api/openapi.json   GraphiQL: ${base}/graphql`,
  '',
  ...demoLines,
];
process.stdout.write(lines.join('\n') + '\n');

// SIGTERM (an orchestrator) waits for the load balancer to see /readyz fail; Ctrl-C does not.
onShutdown({
  logger,
  timeoutMs: config.shutdownReadinessDelayMs + config.shutdownTimeoutMs,
  steps: (signal) =>
    httpShutdownSteps({ app, drain, services, timeoutMs: config.shutdownTimeoutMs, readinessDelayMs: signal === 'SIGTERM' ? config.shutdownReadinessDelayMs : 0 }),
});

/**
 * The demo organization gives a first start something to query. Embedded mode only: a
 * production database gets no sample tenant. Seeded before listening, so a ready server has it.
 */
async function seedDemoOnFirstStart(s: Services, log: Logger): Promise<string[]> {
  if (!s.config.seedDemo || s.config.databaseUrl) return [];
  try {
    return [...demoBanner(await seedDemo(s), s.config.publicBaseUrl), ''];
  } catch (err) {
    log.error({ err }, 'demo seeding failed; the platform runs without it');
    return [];
  }
}
