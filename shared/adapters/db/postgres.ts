import pg from 'pg';
import { parseTimestamptz, TIMESTAMPTZ } from './parse-timestamptz.js';
import { checkChannel, localChannels, setLocalSql, type Db, type Queryable, type QueryOptions, type QueryResult, type TransactionSettings } from './db.js';

const INT8 = 20;
const NUMERIC = 1700;

// int8 counts come back as numbers (as PGlite does); numeric stays a string so decimals stay exact.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === NUMERIC) return (v: string) => v;
    if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

// Statement names by text, one table per Db. Texts asked to be prepared are fixed, or one per
// model, order and shape of selection (a small set per app, see entry-repository) — but clients
// choose the selections, and every pooled connection keeps each statement it prepared, plan
// included, until it closes. Past the cap a text runs unnamed: correct, only planned each time.
const PREPARED_TEXTS_MAX = 500;
function statementNamer(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (!name && names.size < PREPARED_TEXTS_MAX) names.set(sql, (name = `folio_${names.size}`));
    return name;
  };
}

/**
 * Runs a named statement. `client.query({ name, text, values })` first copies its config object
 * through property descriptors (2 µs a call in a loop, ~7 µs per GraphQL page under load,
 * measured); a Query made from the text has nothing to copy, and is named before it is sent.
 */
function runNamed(client: pg.PoolClient, name: string, text: string, values: unknown[] | undefined): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query(text, values, (err, result) => (err ? reject(err) : resolve(result as unknown as pg.QueryResult)));
    (query as pg.Query & { name?: string }).name = name;
    client.query(query);
  });
}

export function createPostgresDb(options: { url: string; poolSize: number; transactionSettings?: TransactionSettings }): Db {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize, types });
  // Only statements whose generic plan is the right one ask to be prepared (lookups by key,
  // unfiltered pages; see QueryOptions), and planning them again at every execution —
  // Postgres's default for the first five and whenever its estimates favour it — cost more CPU
  // than running them (measured: 650 → 230 µs of server CPU per one-entry GraphQL read). So
  // they run on connections of their own, set to `plan_cache_mode = force_generic_plan`: that
  // setting also gives an unnamed statement with parameters a generic plan (only one-shot
  // statements escape it), and a filtered page planned without its values costs many times more
  // (a title search: 12–15 ms of Postgres CPU instead of 3, measured).
  const genericPool = new pg.Pool({ connectionString: options.url, max: options.poolSize, types });
  // A client that loses its connection (Postgres restarting: 57P01, a reset socket) emits
  // 'error'. pg-pool listens only while a client is idle; one checked out — mid-query or inside
  // a transaction — would crash the process with an unhandled 'error'. The query in flight
  // rejects on its own (answered 503), and the broken client is not reused (see `release`).
  for (const p of [pool, genericPool]) {
    p.on('error', () => {});
    p.on('connect', (client) => client.on('error', () => {}));
  }
  const stats = { queries: 0 };
  const statementName = statementNamer();
  /** A statement asked to be prepared: named while under the cap, else unnamed. */
  const runPrepared = (client: pg.PoolClient, sql: string, values: unknown[] | undefined): Promise<pg.QueryResult> => {
    const name = statementName(sql);
    return name ? runNamed(client, name, sql, values) : client.query(sql, values);
  };

  // Set once per connection of `genericPool`, before its first statement.
  const generic = new WeakSet<pg.PoolClient>();
  const runGeneric = async (client: pg.PoolClient, sql: string, values: unknown[] | undefined) => {
    if (!generic.has(client)) {
      await client.query('SET plan_cache_mode = force_generic_plan').catch(() => {}); // older servers: plans as they decide
      generic.add(client);
    }
    return runPrepared(client, sql, values);
  };
  const prepared = async (client: pg.Pool | pg.PoolClient, sql: string, values: unknown[] | undefined) => {
    // In a transaction: named on its connection, planned as Postgres decides (the connection
    // goes back to the pool of unnamed statements, so its setting stays as it is).
    if (!(client instanceof pg.Pool)) return runPrepared(client, sql, values);
    const c = await genericPool.connect();
    try {
      const r = await runGeneric(c, sql, values);
      c.release();
      return r;
    } catch (err) {
      // as pool.query does: a connection whose statement failed is not reused
      c.release(err as Error);
      throw err;
    }
  };

  const local = localChannels();
  /** `echoes`: a transaction's, delivered after its COMMIT; none: delivered at once. */
  const wrap = (client: pg.Pool | pg.PoolClient, echoes?: Array<[string, string]>): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      if (!options?.background) stats.queries++;
      const values = params as unknown[] | undefined;
      const r = await (options?.prepare ? prepared(client, sql, values) : client.query(sql, values));
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async exec(sql: string) {
      stats.queries++;
      await client.query(sql);
    },
    echoOnCommit: local.echoer(echoes),
  });

  const root = wrap(pool);
  return {
    kind: 'postgres',
    stats,
    query: root.query,
    exec: root.exec,
    echoOnCommit: root.echoOnCommit,
    async transaction(fn) {
      const settings = options.transactionSettings?.();
      const client = await pool.connect();
      const echoes: Array<[string, string]> = [];
      try {
        // one round trip: BEGIN and the settings as one simple query
        await client.query(settings ? `BEGIN; ${setLocalSql(settings)}` : 'BEGIN');
        const result = await fn(wrap(client, echoes));
        await client.query('COMMIT');
        client.release();
        for (const [channel, payload] of echoes) local.deliver(channel, payload);
        return result;
      } catch (e) {
        // A ROLLBACK that fails means the connection is gone: destroy it instead of pooling it.
        const broken = await client.query('ROLLBACK').then(() => undefined, (err: Error) => err);
        client.release(broken);
        throw e;
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onNotify, onLost) {
      const unechoed = local.add(checkChannel(channel), onNotify);
      const stop = await listenOn(options.url, channel, onNotify, onLost);
      return async () => {
        unechoed();
        await stop();
      };
    },
    async close() {
      await Promise.all([pool.end(), genericPool.end()]);
    },
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other statements). When it
 * drops, it reconnects every second in the background and calls `onNotify` once back, for what
 * it may have missed; the first connection is made in the background too, so a listener never
 * holds up start-up.
 */
function listenOn(url: string, channel: string, onNotify: (payload?: string) => void, onLost?: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnectSoon = () => {
    if (stopped || retry) return;
    onLost?.();
    client?.end().catch(() => {});
    client = null;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
    retry.unref();
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', reconnectSoon);
    c.on('end', reconnectSoon);
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify(m.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch {
      c.end().catch(() => {});
      return reconnectSoon();
    }
    if (stopped) return void c.end().catch(() => {});
    client = c;
    onNotify();
  };
  void connect();
  return Promise.resolve(async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  });
}
