import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { closeServices, createServices } from '../shared/services.js';
import { closeServer, onShutdown } from '../shared/shutdown.js';
import { startHttpServer } from './server.js';

/** Production API process: HTTP only; jobs run in `workers/main.ts` processes. */
const config = loadConfig();
const logger = createLogger(config.logLevel);
const services = await createServices(config, logger);
const { server, app } = await startHttpServer(services, { port: config.port, host: config.host });
logger.info({ port: config.port, adapters: adapterKinds() }, 'api listening');

onShutdown({
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  steps: () => [
    { name: 'mark not ready', run: async () => void (app.locals.draining = true) },
    { name: 'finish in-flight requests', run: () => closeServer(server, config.shutdownTimeoutMs / 2) },
    { name: 'close connections', run: () => closeServices(services) },
  ],
});

function adapterKinds() {
  return { db: services.db.kind, queue: services.queue.kind, blobs: services.blobs.kind, analytics: services.analytics.kind };
}
