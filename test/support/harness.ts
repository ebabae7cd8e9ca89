import { mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startHttpServer } from '../../api/server.js';
import type { GraphqlServer } from '../../api/graphql/yoga.js';
import { loadConfig, type Config } from '../../shared/config.js';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../shared/logger.js';
import { randomBase62 } from '../../shared/ids.js';
import { createAnalyticsStore, type AnalyticsStore } from '../../shared/adapters/clickhouse/index.js';
import { closeServices, createServices, type Services } from '../../shared/services.js';
import { closeServer } from '../../shared/shutdown.js';
import { responseProblems } from './openapi-responses.js';
import type { Scope } from '../../shared/tenancy/scopes.js';
import { registerWorkers } from '../../workers/register.js';
import type { TestS3 } from './test-s3.js';

export interface FetchOptions {
  method?: string;
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (with your own content-type header). */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

export interface TestOrg {
  orgId: string;
  slug: string;
  manageToken: string;
}

export interface TestApp {
  services: Services;
  /** The GraphQL server mounted on `/graphql` (its schema cache and lane statistics). */
  graphql: GraphqlServer;
  baseUrl: string;
  adminToken: string;
  /** The METRICS_TOKEN that `/metrics` asks for. */
  metricsToken: string;
  /** Which adapters run: 'embedded' or 'production' (DATABASE_URL / REDIS_URL / FOLIO_TEST_S3 set). */
  stack: 'embedded' | 'production';
  fetch(pathname: string, options?: FetchOptions): Promise<Response>;
  /** fetch + JSON body. */
  json<T = any>(pathname: string, options?: FetchOptions): Promise<{ status: number; body: T; headers: Headers }>;
  createOrg(name?: string): Promise<TestOrg>;
  createToken(manageToken: string, scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment on top of the test defaults (e.g. RATE_LIMIT_BURST). */
  env?: Record<string, string>;
  /** Skip registering job handlers (tests that drive the queue themselves). */
  workers?: boolean;
  /** Where log lines go (with env LOG_LEVEL); stdout when absent. */
  logDestination?: DestinationStream;
  /** The Redis key and queue namespace (a worker process of the test's own joins it); random when absent. */
  namespace?: string;
  /**
   * On the production stack, a Postgres database of the app's own, dropped at close: for suites
   * that dispatch webhook or purge events (WEBHOOK_DISPATCH=true), since a dispatcher takes every
   * undispatched event of its database, and another suite's would send this one's with its own
   * settings. (The webhook suite dispatches on the shared database; no other suite does.)
   */
  ownDatabase?: boolean;
}

/** A fresh database next to `url`'s, and how to drop it. */
async function createOwnDatabase(url: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

// chDB opens one data folder per process, so every test app of a test file shares one store
// (data stays apart: every row carries its org id). It closes when the process exits.
let sharedChdb: Promise<AnalyticsStore> | undefined;
async function processChdb(config: Config): Promise<AnalyticsStore> {
  sharedChdb ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-test-chdb-'));
    const store = await createAnalyticsStore({ ...config, dataDir: dir });
    process.once('exit', () => void rm(dir, { recursive: true, force: true }));
    return store;
  })();
  const store = await sharedChdb;
  return {
    kind: store.kind,
    query: (sql, params) => store.query(sql, params),
    command: (sql, params) => store.command(sql, params),
    insertJsonEachRow: (table, rows, options) => store.insertJsonEachRow(table, rows, options),
    ping: () => store.ping(),
    close: async () => {},
  };
}

/**
 * Starts the real product in-process on an ephemeral port, with the adapters the environment
 * selects exactly as in production: DATABASE_URL → Postgres, REDIS_URL → BullMQ and Redis,
 * FOLIO_TEST_S3=1 → S3 (a RADOS Gateway when FOLIO_TEST_S3_ENDPOINT names one, else an in-process
 * s3rver; see test-s3.ts), CLICKHOUSE_URL → ClickHouse server;
 * otherwise PGlite in memory, the in-process queue, a temp folder and chDB in a temp folder.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-test-'));
  const adminToken = 'test-admin-' + randomBase62(40);
  const metricsToken = 'test-metrics-' + randomBase62(40);
  const namespace = options.namespace ?? 't' + randomBase62(10);
  const ownDb = options.ownDatabase && process.env.DATABASE_URL ? await createOwnDatabase(process.env.DATABASE_URL, `folio_${namespace.toLowerCase()}`) : undefined;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PLATFORM_ADMIN_TOKEN: adminToken,
    METRICS_TOKEN: metricsToken,
    DATABASE_URL: ownDb?.url ?? process.env.DATABASE_URL,
    DATABASE_POOL_SIZE: '4',
    REDIS_URL: process.env.REDIS_URL,
    CLICKHOUSE_URL: process.env.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_URL ? `folio_${namespace}` : undefined,
    RATE_LIMIT_BURST: '1000000',
    RATE_LIMIT_PER_SECOND: '1000000',
    // the suites fail authentication on purpose, hundreds of times from one address
    AUTH_FAILURES_BURST: '1000000',
    IMAGE_MISS_MEGAPIXELS_PER_MINUTE: '1000000',
    SEED_DEMO: 'false',
    // Suites of the production stack share one database, so only the suite that asks for it
    // dispatches webhook events (into its own queue namespace).
    WEBHOOK_DISPATCH: 'false',
    ...options.env,
  };
  let s3: TestS3 | undefined;
  if (process.env.FOLIO_TEST_S3 === '1') {
    const { startTestS3 } = await import('./test-s3.js');
    s3 = await startTestS3();
  }
  const config: Config = { ...loadConfig(env), ...(s3 ? { s3: s3.s3Config } : {}) };
  const logger = createLogger(config.logLevel, options.logDestination);
  const analytics = config.clickhouseUrl ? undefined : await processChdb(config);
  const services = await createServices(config, logger, { inMemoryDb: true, namespace, analytics });
  if (options.workers !== false) registerWorkers(services);
  const { server, url, graphql } = await startHttpServer(services, { port: 0, host: '127.0.0.1' });
  services.config.publicBaseUrl = url;

  const doFetch = (pathname: string, o: FetchOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    let body: BodyInit | undefined = o.rawBody;
    if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(o.body);
    }
    return fetch(url + pathname, { method: o.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  };

  const json = async (pathname: string, o: FetchOptions = {}) => {
    const res = await doFetch(pathname, o);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // non-JSON bodies are returned as text so assertions can show them
    }
    // Every answer a suite receives is also checked against the OpenAPI document.
    const method = o.method ?? (o.body !== undefined || o.rawBody !== undefined ? 'POST' : 'GET');
    const problem = responseProblems(method, new URL(pathname, url).pathname, res.status, res.headers.get('content-type'), body);
    if (problem) throw new Error(`${problem}\n${text.slice(0, 500)}`);
    return { status: res.status, body: body as any, headers: res.headers };
  };

  return {
    services,
    graphql,
    baseUrl: url,
    adminToken,
    metricsToken,
    stack: config.databaseUrl || config.redisUrl || s3 ? 'production' : 'embedded',
    fetch: doFetch,
    json,
    async createOrg(name = 'Test org') {
      const slug = `t-${randomBase62(12).toLowerCase()}`;
      const res = await json('/admin/v1/organizations', { token: adminToken, body: { name, slug } });
      if (res.status !== 201) throw new Error(`createOrg failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { orgId: res.body.result.id, slug, manageToken: res.body.result.token };
    },
    async createToken(manageToken, scopes) {
      const res = await json('/management/v1/tokens', { token: manageToken, body: { name: `test ${scopes.join(',')}`, scopes } });
      if (res.status !== 201) throw new Error(`createToken failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.result.token as string;
    },
    async close() {
      await closeServer(server as Server, 1000);
      await closeServices(services);
      await ownDb?.drop();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
