import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server that answers like a ClickHouse server of `version` to what Folio asks first
 * (`SELECT version()`, `/ping`) and fails every other statement: enough to meet a server that
 * is too old, which no package here installs.
 */
export async function startClickHouseStub(version: string, port = 0): Promise<{ url: string; queries: string[]; close(): Promise<void> }> {
  const queries: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const query = `${new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? ''} ${body}`.trim();
      queries.push(query);
      if (req.url?.startsWith('/ping')) return void res.end('Ok.\n');
      if (/version\(\)/.test(query)) {
        res.setHeader('Content-Type', 'application/x-ndjson');
        return void res.end(`${JSON.stringify({ version })}\n`);
      }
      res.statusCode = 500;
      res.setHeader('X-ClickHouse-Exception-Code', '48');
      res.end('Code: 48. DB::Exception: Not implemented by the test stub. (NOT_IMPLEMENTED)\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
