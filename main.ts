import { closeServer, onShutdown } from './shared/shutdown.js';
import { ConfigError, loadConfig } from './shared/config.js';
import { createLogger } from './shared/logger.js';
import { closeServices, createServices } from './shared/services.js';
import { startHttpServer } from './api/server.js';
import { registerWorkers } from './workers/register.js';

/**
 * `npm start`: the API and the workers in one process. With no service variables everything is
 * embedded under DATA_DIR (PGlite, local blobs, in-process queue, chDB); each variable that is
 * set swaps in its production adapter.
 */
let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
const logger = createLogger(config.logLevel);
const started = performance.now();
logger.info({ dataDir: config.dataDir }, 'starting folio');
const services = await createServices(config, logger);
registerWorkers(services);
const { server, app } = await startHttpServer(services, { port: config.port, host: config.host });

const adapters = { db: services.db.kind, queue: services.queue.kind, blobs: services.blobs.kind, analytics: services.analytics.kind };
logger.info({ port: config.port, adapters, startupMs: Math.round(performance.now() - started) }, 'folio ready');

const lines = [
  '',
  `Folio is running at ${config.publicBaseUrl}`,
  `  adapters: database=${adapters.db} queue=${adapters.queue} blobs=${adapters.blobs} analytics=${adapters.analytics}`,
  services.adminTokenFile
    ? `  platform admin token: in ${services.adminTokenFile} (use it for /admin/v1)`
    : services.adminToken
      ? '  platform admin token: PLATFORM_ADMIN_TOKEN'
      : '  platform admin API closed: set PLATFORM_ADMIN_TOKEN to open it',
  `  health: ${config.publicBaseUrl}/readyz   OpenAPI: ${config.publicBaseUrl}/api/openapi.json`,
  '',
];
process.stdout.write(lines.join('\n') + '\n');

onShutdown({
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  steps: () => [
    { name: 'mark not ready', run: async () => void (app.locals.draining = true) },
    { name: 'finish in-flight requests', run: () => closeServer(server, config.shutdownTimeoutMs / 2) },
    { name: 'finish in-flight jobs and close connections', run: () => closeServices(services) },
  ],
});
