/**
 * The receiver of `bench:webhooks`, in a process of its own so that neither Folio nor the bare
 * loop shares its event loop. Records when each request's headers arrived (wall clock, in ms with
 * fractions) and answers 204; the parent asks for the records over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  at: number;
  entryId: string | null;
}

let arrivals: Arrival[] = [];
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const at = performance.timeOrigin + performance.now();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let entryId: string | null = null;
    try {
      entryId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } }).data?.id ?? null;
    } catch {
      // a body that is not JSON still counts as an arrival
    }
    arrivals.push({ at, entryId });
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (m: 'take') => {
  if (m !== 'take') return;
  process.send?.({ arrivals });
  arrivals = [];
});
process.on('disconnect', () => process.exit(0));
