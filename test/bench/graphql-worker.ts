/**
 * A child process of `bench:graphql` (see graphql-cluster.ts), by BENCH_ROLE:
 *   api  an API replica: the product's services and HTTP server on DATABASE_URL, in the default
 *        configuration (its log level too; only the rate limit raised), twice — with the
 *        response cache (the "cached" lines) and without it (GRAPHQL_RESPONSE_CACHE=false: every
 *        request executes). Replicas listen on ports they share through node:cluster.
 *   raw  a raw-SQL client: BENCH_CONNECTIONS pg connections running one query's hand-written
 *        statements in a loop when asked.
 *   bare the two limits of an HTTP answer, bare node:http servers on ports the replicas share as
 *        the API's do: `pg`, each request runs the query's hand-written statements (named
 *        prepared statements, as the service's) through one pool of DATABASE_POOL_SIZE
 *        connections and writes the JSON the API answers; `memory`, each request answered the
 *        API's bytes from memory. Both read the request body first, as the API must. Path: /Q1…/Q4.
 *        Ports: BENCH_PG_PORT and BENCH_MEMORY_PORT (see `startBareServers`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { startHttpServer } from '../../api/server.js';
import { loadConfig } from '../../shared/config.js';
import { randomBase62 } from '../../shared/ids.js';
import { createLogger } from '../../shared/logger.js';
import { closeServices, createServices } from '../../shared/services.js';
import { closeServer } from '../../shared/shutdown.js';
import type { FromPrimary, FromWorker } from './graphql-cluster.js';
import { DATA, SQL, type QueryName, type Run } from './graphql-queries.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const send = (m: FromWorker) => process.send!(m);

if (process.env.BENCH_ROLE === 'api') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-api-'));
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '16',
    DATA_DIR: dataDir,
    PLATFORM_ADMIN_TOKEN: randomBase62(40),
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '10000000',
  };
  const config = loadConfig(env);
  // the default log level, as the default configuration runs (stdout is /dev/null here)
  const services = await createServices(config, createLogger(config.logLevel));
  const caching = await startHttpServer(services, { port: 0, host: '127.0.0.1' });
  const executing = await startHttpServer({ ...services, config: { ...config, graphqlResponseCache: false } }, { port: 0, host: '127.0.0.1' });
  process.on('message', async (m: FromPrimary) => {
    if (m.type === 'statements') send({ type: 'statements', id: m.id, statements: services.db.stats.queries });
    if (m.type === 'close') {
      await closeServer(executing.server, 1000);
      await closeServer(caching.server, 1000);
      await closeServices(services);
      await rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  send({ type: 'ready', urls: { caching: caching.url, executing: executing.url } });
} else if (process.env.BENCH_ROLE === 'raw') {
  const connections = Number(process.env.BENCH_CONNECTIONS);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const statementNames = new Map<string, string>();
  const nameOf = (text: string) => statementNames.get(text) ?? statementNames.set(text, `bench_${statementNames.size}`).get(text)!;
  process.on('message', async (m: FromPrimary) => {
    if (m.type === 'run') {
      const latencies: number[] = [];
      const end = performance.now() + m.seconds * 1000;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          const client = await pool.connect();
          const c: Run = m.prepared ? (text, values) => client.query({ name: nameOf(text), text, values }) : (text, values) => client.query(text, values);
          try {
            while (performance.now() < end) {
              const t = performance.now();
              await SQL[m.query](c, m.orgId);
              latencies.push(performance.now() - t);
            }
          } finally {
            client.release();
          }
        }),
      );
      send({ type: 'ran', id: m.id, latencies });
    }
    if (m.type === 'close') {
      await pool.end();
      process.exit(0);
    }
  });
  send({ type: 'ready' });
} else if (process.env.BENCH_ROLE === 'bare') {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 16 });
  const statementNames = new Map<string, string>();
  const nameOf = (text: string) => statementNames.get(text) ?? statementNames.set(text, `bare_${statementNames.size}`).get(text)!;
  const run: Run = (text, values) => pool.query({ name: nameOf(text), text, values });
  /** Per query: the API's answer (bytes and its `extensions`) and the organization it reads. */
  const answers = new Map<string, { bytes: Buffer; extensions: unknown; orgId: string }>();
  const write = (res: ServerResponse, status: number, body: Buffer | string) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  // the whole body read before answering, as the API must before it can parse it
  const afterBody = (req: IncomingMessage, then: () => void) => {
    req.on('data', () => {});
    req.on('end', then);
  };
  const listen = (port: number, handler: (answer: { bytes: Buffer; extensions: unknown; orgId: string }, query: QueryName, res: ServerResponse) => void) =>
    new Promise<string>((resolve) => {
      const server = createServer((req, res) =>
        afterBody(req, () => {
          const query = (req.url ?? '').slice(1) as QueryName;
          const answer = answers.get(query);
          if (!answer) return write(res, 404, '{"error":"no answer for this query yet"}');
          handler(answer, query, res);
        }),
      );
      server.keepAliveTimeout = 65_000;
      server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${port}`));
    });
  const memoryUrl = await listen(Number(process.env.BENCH_MEMORY_PORT), (answer, _query, res) => write(res, 200, answer.bytes));
  const pgUrl = await listen(Number(process.env.BENCH_PG_PORT), (answer, query, res) => {
    SQL[query](run, answer.orgId).then(
      (result) => write(res, 200, JSON.stringify({ data: DATA[query](result), extensions: answer.extensions })),
      (err: unknown) => write(res, 500, JSON.stringify({ error: String(err) })),
    );
  });
  process.on('message', async (m: FromPrimary) => {
    if (m.type === 'answer') {
      answers.set(m.query, { bytes: Buffer.from(m.text), extensions: (JSON.parse(m.text) as { extensions?: unknown }).extensions, orgId: m.orgId });
      send({ type: 'answered', id: m.id });
    }
    if (m.type === 'close') {
      await pool.end();
      process.exit(0);
    }
  });
  send({ type: 'ready', urls: { pg: pgUrl, memory: memoryUrl } });
} else {
  throw new Error(`graphql-worker: unknown BENCH_ROLE ${process.env.BENCH_ROLE}`);
}
