import { createServer, type Server } from 'node:http';
import type { Application } from 'express';
import { closeServices, type Services } from '../shared/services.js';
import { httpDrain, type HttpDrain } from '../shared/http-drain.js';
import type { ShutdownStep } from '../shared/shutdown.js';
import { createApp } from './http/app.js';
import { frontDoor } from './http/front-door.js';
import { createGraphqlServer, type GraphqlServer } from './graphql/yoga.js';

/** Creates the app and listens; resolves once the port is bound. */
export async function startHttpServer(
  services: Services,
  options: { port: number; host?: string },
): Promise<{ server: Server; app: Application; graphql: GraphqlServer; drain: HttpDrain; url: string }> {
  const app = createApp(services);
  const graphql = createGraphqlServer(services, { responseCache: services.config.graphqlResponseCache });
  const server = createServer();
  const base = httpDrain(server);
  const drain: HttpDrain = {
    wrap: (listener) => base.wrap(listener),
    startDraining: () => base.startDraining(),
    get draining() {
      return base.draining;
    },
    // open subscriptions end first: their event streams complete, so their connections close
    // instead of holding the shutdown until the grace runs out
    close: (graceMs) => {
      graphql.live.close();
      return base.close(graceMs);
    },
  };
  server.on('request', drain.wrap(frontDoor(services, app, graphql)));
  // Behind load balancers, keep-alive must outlive theirs (commonly 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, app, graphql, drain, url: `http://${options.host ?? 'localhost'}:${port}` };
}

/**
 * The drain order of a process that serves HTTP, for rolling updates: fail `/readyz` and answer
 * with `Connection: close` while still serving for `readinessDelayMs` (the load balancer's probes
 * notice and route elsewhere), then stop accepting and answer what is in flight or still arrives
 * on open connections, then finish jobs (when this process runs them) and close connections.
 */
export function httpShutdownSteps(options: {
  app: Application;
  drain: HttpDrain;
  services: Services;
  /** The time the load balancer needs to see `/readyz` fail (0: leave at once, e.g. on Ctrl-C). */
  readinessDelayMs: number;
  timeoutMs: number;
}): ShutdownStep[] {
  return [
    {
      name: 'fail readiness and keep serving',
      run: async () => {
        options.app.locals.draining = true;
        options.drain.startDraining();
        await new Promise((r) => setTimeout(r, options.readinessDelayMs));
      },
    },
    { name: 'stop accepting and finish requests', run: () => options.drain.close(options.timeoutMs / 2) },
    { name: 'finish in-flight jobs and close connections', run: () => closeServices(options.services) },
  ];
}
