import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { checkChannel, localChannels, setLocalSql, type Db, type Queryable, type QueryOptions, type QueryResult, type TransactionSettings } from './db.js';

const NUMERIC = 1700;

/**
 * PGlite is real Postgres compiled to WASM, running on this thread. `dataDir` undefined keeps it
 * in memory (tests); otherwise it lives in `<dataDir>/pg`.
 */
export async function createPgliteDb(options: { dataDir?: string; inMemory?: boolean; transactionSettings?: TransactionSettings }): Promise<Db> {
  let dir: string | undefined;
  if (!options.inMemory && options.dataDir) {
    dir = path.join(options.dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
  }
  const pglite = await PGlite.create({
    dataDir: dir,
    extensions: { pg_trgm, btree_gin },
    parsers: { [NUMERIC]: (v: string) => v },
  });
  const stats = { queries: 0 };

  const local = localChannels();
  /** `echoes`: a transaction's, delivered after its COMMIT; none: delivered at once. */
  const wrap = (target: PGlite | Transaction, echoes?: Array<[string, string]>): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      if (!options?.background) stats.queries++;
      const r = await target.query<T>(sql, params as unknown[] | undefined);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      stats.queries++;
      await target.exec(sql);
    },
    echoOnCommit: local.echoer(echoes),
  });

  const root = wrap(pglite);
  return {
    kind: 'pglite',
    stats,
    query: root.query,
    exec: root.exec,
    echoOnCommit: root.echoOnCommit,
    async transaction(fn) {
      const settings = options.transactionSettings?.();
      const echoes: Array<[string, string]> = [];
      const result = await pglite.transaction(async (tx) => {
        if (settings) await tx.exec(setLocalSql(settings));
        return fn(wrap(tx, echoes));
      });
      for (const [channel, payload] of echoes) local.deliver(channel, payload);
      return result;
    },
    async ping() {
      await pglite.query('SELECT 1');
    },
    async listen(channel, onNotify) {
      const unechoed = local.add(checkChannel(channel), onNotify);
      const stop = await pglite.listen(channel, (payload) => onNotify(payload ?? ''));
      queueMicrotask(onNotify); // as a server listener does once connected (an in-process one is never lost)
      return async () => {
        unechoed();
        await stop().catch(() => {}); // closed already: nothing to stop
      };
    },
    async close() {
      await pglite.close();
    },
  };
}
