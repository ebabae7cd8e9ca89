import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerHealthServer } from './health-server.js';

describe('the workers health endpoint', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  const start = async (queueUp: boolean) => {
    const server = await startWorkerHealthServer(
      {
        queue: { ping: async () => (queueUp ? undefined : Promise.reject(new Error('ECONNREFUSED'))) } as never,
        db: { ping: async () => undefined } as never,
      },
      0,
    );
    close = () => server.close();
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('/healthz while the process runs; /readyz 200 while queue and database answer', async () => {
    const url = await start(true);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', dependencies: { queue: 'up', database: 'up' } }]);
  });

  it('/readyz 503 naming the dependency that is down', async () => {
    const url = await start(false);
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'unavailable', dependencies: { queue: 'down', database: 'up' } }]);
    expect((await fetch(`${url}/other`)).status).toBe(404);
  });
});
