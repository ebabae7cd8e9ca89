import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { checkChannel, setLocalSql, type Db, type Queryable, type QueryOptions, type QueryResult, type TransactionSettings } from './db.js';

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

  const wrap = (target: PGlite | Transaction): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      if (!options?.background) stats.queries++;
      const r = await target.query<T>(sql, params as unknown[] | undefined);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      stats.queries++;
      await target.exec(sql);
    },
  });

  const root = wrap(pglite);
  return {
    kind: 'pglite',
    stats,
    query: root.query,
    exec: root.exec,
    transaction: (fn) => {
      const settings = options.transactionSettings?.();
      return pglite.transaction(async (tx) => {
        if (settings) await tx.exec(setLocalSql(settings));
        return fn(wrap(tx));
      });
    },
    async ping() {
      await pglite.query('SELECT 1');
    },
    async listen(channel, onNotify) {
      const stop = await pglite.listen(checkChannel(channel), () => onNotify());
      queueMicrotask(onNotify); // as a server listener does once connected
      return async () => {
        await stop().catch(() => {}); // closed already: nothing to stop
      };
    },
    async close() {
      await pglite.close();
    },
  };
}
