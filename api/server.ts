import { createServer, type Server } from 'node:http';
import type { Application } from 'express';
import type { Services } from '../shared/services.js';
import { createApp } from './http/app.js';

/** Creates the app and listens; resolves once the port is bound. */
export async function startHttpServer(services: Services, options: { port: number; host?: string }): Promise<{ server: Server; app: Application; url: string }> {
  const app = createApp(services);
  const server = createServer(app);
  // Behind load balancers, keep-alive must outlive theirs (commonly 60 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, app, url: `http://${options.host ?? 'localhost'}:${port}` };
}
