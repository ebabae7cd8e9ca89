import { createServer, type Server } from 'node:http';
import type { Services } from '../shared/services.js';

/**
 * The worker process's health, for container probes (it serves no other HTTP): `/healthz` is
 * 200 while the process runs; `/readyz` is 200 while its queue (Redis) and database answer, 503
 * naming what does not. Listens on HEALTH_PORT when it is set.
 */
export function startWorkerHealthServer(services: Pick<Services, 'queue' | 'db'>, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return answer(200, { status: 'ok' });
    if (req.url !== '/readyz') return answer(404, { status: 'not found' });
    const checks = { queue: () => services.queue.ping(), database: () => services.db.ping() };
    void Promise.all(
      Object.entries(checks).map(([name, ping]) =>
        ping().then(
          () => [name, 'up'] as const,
          () => [name, 'down'] as const,
        ),
      ),
    ).then((states) => {
      const down = states.filter(([, s]) => s === 'down');
      answer(down.length === 0 ? 200 : 503, { status: down.length === 0 ? 'ready' : 'unavailable', dependencies: Object.fromEntries(states) });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
