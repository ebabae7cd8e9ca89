import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeServer } from './shutdown.js';

describe('closeServer', () => {
  it('lets an in-flight request finish, then refuses new connections', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((r) => (arrived = r));
    const server = createServer((_req, res) => {
      arrived();
      setTimeout(() => res.end('done'), 300);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const inFlight = fetch(url).then((r) => r.text());
    await requestArrived;
    const closed = closeServer(server, 5000);
    expect(await inFlight).toBe('done');
    await closed;
    await expect(fetch(url)).rejects.toThrow();
  });
});
