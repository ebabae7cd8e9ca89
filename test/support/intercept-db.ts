import type { Db, Queryable, QueryOptions, QueryResult } from '../../shared/adapters/db/index.js';

/**
 * `db` with a hook before every statement, inside transactions too: a test makes a statement
 * fail (throw) or hold its transaction open (await something) at a chosen point — the only way
 * to cause a fault or a race at an exact moment; `beforeTransaction` runs before each
 * transaction begins. Other members are `db`'s own.
 */
export function interceptDb(
  db: Db,
  before: (sql: string, params?: readonly unknown[]) => void | Promise<void>,
  beforeTransaction: () => void | Promise<void> = () => {},
): Db {
  const wrap = (q: Queryable): Queryable => ({
    exec: (sql) => q.exec(sql),
    echoOnCommit: (channel, payload) => q.echoOnCommit(channel, payload),
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      await before(sql, params);
      return q.query<T>(sql, params, options);
    },
  });
  const plain = wrap(db);
  return Object.assign(Object.create(db) as Db, {
    query: plain.query,
    exec: plain.exec,
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>) => {
      await beforeTransaction();
      return db.transaction((tx) => fn(wrap(tx)));
    },
  });
}
