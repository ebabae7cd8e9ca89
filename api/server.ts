import { createServer, type Server } from 'node:http';
import type { Application } from 'express';
import { closeServices, type Services } from '../shared/services.js';
import { closeServer, type ShutdownStep } from '../shared/shutdown.js';
import { createApp } from './http/app.js';
import { frontDoor } from './http/front-door.js';
import { createGraphqlServer, type GraphqlServer } from './graphql/yoga.js';

/** Creates the app and listens; resolves once the port is bound. */
export async function startHttpServer(
  services: Services,
  options: { port: number; host?: string },
): Promise<{ server: Server; app: Application; graphql: GraphqlServer; url: string }> {
  const app = createApp(services);
  const graphql = createGraphqlServer(services, { responseCache: services.config.graphqlResponseCache });
  const server = createServer(frontDoor(services, app, graphql));
  // Behind load balancers, keep-alive must outlive theirs (commonly 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, app, graphql, url: `http://${options.host ?? 'localhost'}:${port}` };
}

/**
 * The drain order of a process that serves HTTP: leave the load balancer's rotation, finish
 * in-flight requests, then finish jobs (when this process runs them) and close connections.
 */
export function httpShutdownSteps(options: { server: Server; app: Application; services: Services; timeoutMs: number }): ShutdownStep[] {
  return [
    { name: 'mark not ready', run: async () => void (options.app.locals.draining = true) },
    { name: 'finish in-flight requests', run: () => closeServer(options.server, options.timeoutMs / 2) },
    { name: 'finish in-flight jobs and close connections', run: () => closeServices(options.services) },
  ];
}
