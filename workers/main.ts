import { createLogger } from '../shared/logger.js';
import { closeServices, createServices } from '../shared/services.js';
import { onShutdown } from '../shared/shutdown.js';
import { loadConfigOrExit, startOrExit } from '../shared/startup-faults.js';
import { startWorkerHealthServer } from './health-server.js';
import { registerWorkers } from './register.js';

/** Production worker process: runs jobs from BullMQ; scale by running more of these. */
const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
if (!config.redisUrl) {
  process.stderr.write('folio: cannot start: workers/main needs REDIS_URL: without it the queue is in-process, so run `npm start` (API and workers in one process)\n');
  process.exit(1);
}
if (!config.clickhouseUrl) {
  logger.warn(`no CLICKHOUSE_URL: log lines go into this process's embedded engine (${config.dataDir}/chdb), which no API process reads (analytics answers 503); set CLICKHOUSE_URL to a ClickHouse server every process shares`);
}
const services = await startOrExit(config, async () => {
  const s = await createServices(config, logger);
  registerWorkers(s);
  return s;
});
const health = config.healthPort ? await startWorkerHealthServer(services, config.healthPort) : undefined;
logger.info({ queue: services.queue.kind, healthPort: config.healthPort }, 'workers running');

onShutdown({
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  steps: () => [
    { name: 'finish in-flight jobs and close connections', run: () => closeServices(services) },
    { name: 'stop the health endpoint', run: () => new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve())) },
  ],
});
