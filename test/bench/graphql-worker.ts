/**
 * A child process of `bench:graphql` (see graphql-cluster.ts), by BENCH_ROLE:
 *   api  an API replica: the product's services and HTTP server on DATABASE_URL, twice — with the
 *        response cache (the "cached" lines) and without it (GRAPHQL_RESPONSE_CACHE=false: every
 *        request executes). Replicas listen on ports they share through node:cluster.
 *   raw  a raw-SQL client: BENCH_CONNECTIONS pg connections running one query's hand-written
 *        statements in a loop when asked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startHttpServer } from '../../api/server.js';
import { loadConfig } from '../../shared/config.js';
import { randomBase62 } from '../../shared/ids.js';
import { createLogger } from '../../shared/logger.js';
import { closeServices, createServices } from '../../shared/services.js';
import { closeServer } from '../../shared/shutdown.js';
import type { FromPrimary, FromWorker } from './graphql-cluster.js';
import { SQL, type Run } from './graphql-queries.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const send = (m: FromWorker) => process.send!(m);

if (process.env.BENCH_ROLE === 'api') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-api-'));
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '16',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PLATFORM_ADMIN_TOKEN: randomBase62(40),
    SEED_DEMO: 'false',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '10000000',
  };
  const config = loadConfig(env);
  const services = await createServices(config, createLogger('silent'));
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
} else {
  throw new Error(`graphql-worker: unknown BENCH_ROLE ${process.env.BENCH_ROLE}`);
}
