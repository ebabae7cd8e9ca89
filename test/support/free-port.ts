import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (for servers a test starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
