import type { Server } from 'node:http';
import type { Logger } from './logger.js';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/**
 * One shutdown routine for every entry point: on SIGTERM/SIGINT run the steps in order (stop
 * accepting, finish in-flight requests and jobs, close connections), bounded by `timeoutMs`.
 * `steps` gets the signal: SIGTERM is an orchestrator's (a rolling update), SIGINT a person's.
 */
export function onShutdown(options: { logger: Logger; timeoutMs: number; steps: (signal: NodeJS.Signals) => ShutdownStep[] }): void {
  let started = false;
  const handler = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    options.logger.info({ signal }, 'shutting down: draining');
    const hardStop = setTimeout(() => {
      options.logger.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, options.timeoutMs);
    hardStop.unref();
    void (async () => {
      for (const step of options.steps(signal)) {
        try {
          await step.run();
          options.logger.info({ step: step.name }, 'shutdown step done');
        } catch (err) {
          options.logger.warn({ err, step: step.name }, 'shutdown step failed');
        }
      }
      options.logger.info('shutdown complete');
      process.exit(0);
    })();
  };
  process.once('SIGTERM', () => handler('SIGTERM'));
  process.once('SIGINT', () => handler('SIGINT'));
}

/** Stops accepting connections and resolves when in-flight requests have finished. */
export function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive sockets would hold close() open: close each one as soon as its request is done.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
