import pg from 'pg';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig, type Config } from './config.js';

/**
 * Start-up faults as one line each, naming the variable and what was tried, instead of a stack
 * trace: a missing database, a Postgres or Redis that does not answer, chDB's data folder held by
 * another process. `checkStartupDependencies` asks each configured service once before the
 * adapters are built (their own clients would retry or throw from deep inside their pools).
 */
export class StartupFault extends Error {}

const CONNECT_TIMEOUT_MS = 5000;

/** `postgres://user:secret@host:5432/db` → `host:5432/db` (never prints a password). */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'the given URL';
  }
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = (e.message ?? String(err)).split('\n')[0];
  return e.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const e = err as { code?: string };
    const hint = e.code === '3D000' ? ' (create the database, or point DATABASE_URL at one that exists)' : '';
    throw new StartupFault(`DATABASE_URL: cannot use Postgres at ${where(url)}: ${reason(err)}${hint}`);
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: CONNECT_TIMEOUT_MS });
  // connect() rejects with "Connection is closed."; the socket's own error says why.
  let socketError: unknown;
  redis.on('error', (err) => (socketError ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new StartupFault(`REDIS_URL: cannot reach Redis at ${where(url)}: ${reason(socketError ?? err)}`);
  } finally {
    redis.disconnect();
  }
}

export async function checkStartupDependencies(config: Pick<Config, 'databaseUrl' | 'redisUrl'>): Promise<void> {
  await Promise.all([config.databaseUrl ? checkPostgres(config.databaseUrl) : undefined, config.redisUrl ? checkRedis(config.redisUrl) : undefined]);
}

/** The one line a failed start prints: a known fault as it is, anything else with its first line. */
export function startupFaultLine(err: unknown, config: Pick<Config, 'dataDir'>): string {
  if (err instanceof StartupFault) return err.message;
  const message = reason(err);
  // chDB refuses a data folder another process holds (its engine prints "Cannot lock file …/status").
  if (/Cannot lock file .*chdb|CHDB_CONNECTION: Failed to create connection/i.test(message)) {
    return `chDB, the embedded ClickHouse, is one process's engine and ${config.dataDir}/chdb is in use by another process: set CLICKHOUSE_URL when running api and workers as separate processes`;
  }
  // The production image leaves the embedded engines out (they are optional dependencies).
  const missing = /Cannot find (?:package|module) '(chdb|@electric-sql\/pglite)/.exec(message)?.[1];
  if (missing === 'chdb') return 'the embedded ClickHouse (chDB) is not installed here (production images leave it out): set CLICKHOUSE_URL to a ClickHouse server';
  if (missing) return 'the embedded Postgres (PGlite) is not installed here (production images leave it out): set DATABASE_URL to a Postgres server';
  return `start-up failed: ${message}`;
}

/**
 * Runs an entry point's start-up: a fault prints its one line to stderr and exits with code 1
 * (configuration errors exit 2 before this).
 */
export async function startOrExit<T>(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'redisUrl'>, start: () => Promise<T>): Promise<T> {
  try {
    await checkStartupDependencies(config);
    return await start();
  } catch (err) {
    process.stderr.write(`folio: cannot start: ${startupFaultLine(err, config)}\n`);
    process.exit(1);
  }
}

/** The configuration, or its errors on stderr and exit code 2. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`folio: ${err.message}\n`);
    process.exit(2);
  }
}
