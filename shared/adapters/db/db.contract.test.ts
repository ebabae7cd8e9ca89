import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../ids.js';
import type { Db } from './db.js';
import { migratePostgres } from './migrate.js';
import { createPgliteDb } from './pglite.js';
import { createPostgresDb } from './postgres.js';

/** The same contract on PGlite and on a real Postgres (when DATABASE_URL is set). */
const targets: Array<[string, () => Promise<Db>]> = [['pglite', () => createPgliteDb({ inMemory: true })]];
if (process.env.DATABASE_URL) targets.push(['postgres', async () => createPostgresDb({ url: process.env.DATABASE_URL!, poolSize: 4 })]);

describe.each(targets)('Db contract: %s', (_name, make) => {
  let db: Db;
  const table = `contract_${randomBase62(8).toLowerCase()}`;
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${table}`);
    await db?.close();
  });

  it('returns the same JS types on both engines', async () => {
    db = await make();
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT 9007199254740991::int8 AS big, 1.50::numeric AS dec, '2026-01-02T03:04:05.678Z'::timestamptz AS ts,
              '{"a":[1,2]}'::jsonb AS doc, ARRAY['x','y'] AS arr, $1::text AS param, NULL::text AS nothing`,
      ['hello'],
    );
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      dec: '1.50',
      ts: new Date('2026-01-02T03:04:05.678Z'),
      doc: { a: [1, 2] },
      arr: ['x', 'y'],
      param: 'hello',
      nothing: null,
    });
  });

  it('runs scripts, counts rows and statements', async () => {
    const before = db.stats.queries;
    await db.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, v text); INSERT INTO ${table} VALUES (1, 'a'), (2, 'b');`);
    const r = await db.query(`UPDATE ${table} SET v = v || '!'`);
    expect(r.rowCount).toBe(2);
    expect(db.stats.queries - before).toBe(2);
  });

  it('commits a transaction, and rolls everything back when it throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (3, 'c')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (4, 'd')`);
        await tx.query(`INSERT INTO ${table} VALUES (1, 'duplicate')`);
      }),
    ).rejects.toThrow();
    const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('runs a statement asked to be prepared like any other, again and again, in and out of transactions', async () => {
    const sql = `SELECT id, v FROM ${table} WHERE id = ANY($1::int[]) ORDER BY id`;
    const other = `SELECT count(*) AS n FROM ${table} WHERE id > $1`;
    for (let i = 0; i < 3; i++) {
      expect((await db.query(sql, [[1, 3]], { prepare: true })).rows).toEqual([{ id: 1, v: 'a!' }, { id: 3, v: 'c' }]);
      expect((await db.query(other, [1], { prepare: true })).rows).toEqual([{ n: 2 }]);
    }
    const inside = await db.transaction(async (tx) => {
      await tx.query(`UPDATE ${table} SET v = 'changed' WHERE id = 3`);
      return (await tx.query(sql, [[3]], { prepare: true })).rows;
    });
    expect(inside).toEqual([{ id: 3, v: 'changed' }]);
    // Bad values fail the statement, not the connection's later use of it.
    await expect(db.query(sql, [['x']], { prepare: true })).rejects.toThrow();
    expect((await db.query(sql, [[2]], { prepare: true })).rows).toEqual([{ id: 2, v: 'b!' }]);
    // Postgres keeps one generic plan for them instead of planning each execution again, on
    // whichever pooled connection they run.
    if (db.kind === 'postgres') {
      const mode = `SELECT current_setting('plan_cache_mode') AS mode FROM ${table} LIMIT 1`;
      const modes = await Promise.all(Array.from({ length: 8 }, () => db.query<{ mode: string }>(mode, [], { prepare: true })));
      expect(modes.map((m) => m.rows[0].mode)).toEqual(Array(8).fill('force_generic_plan'));
      // Every other statement is planned with its values: the setting would give an unnamed
      // statement with parameters a generic plan too. Also on a connection that ran a prepared
      // statement in a transaction.
      await Promise.all(Array.from({ length: 4 }, () => db.transaction((tx) => tx.query(mode, [], { prepare: true }))));
      const unnamed = await Promise.all(Array.from({ length: 8 }, () => db.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode WHERE $1::int > 0`, [1])));
      expect(unnamed.map((m) => m.rows[0].mode)).toEqual(Array(8).fill('auto'));
    }
  });

  it('runs more distinct texts asked to be prepared than are kept prepared (past the cap they run unnamed)', async () => {
    const texts = Array.from({ length: 600 }, (_, i) => `SELECT $1::int + ${i} AS n`);
    for (let i = 0; i < texts.length; i += 100) {
      const batch = await Promise.all(texts.slice(i, i + 100).map((t) => db.query<{ n: number }>(t, [1], { prepare: true })));
      expect(batch.map((r) => r.rows[0].n)).toEqual(Array.from({ length: batch.length }, (_, k) => i + k + 1));
    }
    expect((await db.query<{ n: number }>(texts[599], [5], { prepare: true })).rows).toEqual([{ n: 604 }]);
  });

  it('LISTEN hears a NOTIFY when its transaction commits, never one rolled back', async () => {
    const channel = `contract_${randomBase62(6).toLowerCase()}`;
    let heard = 0;
    const stop = await db.listen(channel, () => heard++);
    const until = async (n: number) => {
      for (let i = 0; i < 100 && heard < n; i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(1); // the server listener says once when it is connected
    const before = heard;
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`NOTIFY ${channel}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.transaction(async (tx) => {
      await tx.query(`NOTIFY ${channel}`);
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toBe(before); // not before COMMIT
    });
    await until(before + 1);
    expect(heard).toBe(before + 1);
    await stop();
    await db.query(`NOTIFY ${channel}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toBe(before + 1);
  });

  it.runIf(_name === 'postgres')('a LISTEN connection that drops comes back by itself and says so', async () => {
    const channel = `contract_${randomBase62(6).toLowerCase()}`;
    let heard = 0;
    const stop = await db.listen(channel, () => heard++);
    const until = async (n: number) => {
      for (let i = 0; i < 100 && heard < n; i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(1);
    const { rows } = await db.query<{ killed: boolean }>(`SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`]);
    expect(rows).toEqual([{ killed: true }]);
    await until(2); // reconnected: one call for what it may have missed
    expect(heard).toBe(2);
    await db.query(`NOTIFY ${channel}`);
    await until(3);
    expect(heard).toBe(3);
    await stop();
  });

  it('applies migrations once; a second run applies nothing', async () => {
    const fresh = await make();
    try {
      if (fresh.kind === 'postgres') return; // covered on a fresh database below
      const first = await migratePostgres(fresh);
      expect(first.applied.length).toBeGreaterThan(0);
      const second = await migratePostgres(fresh);
      expect(second.applied).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations on Postgres', () => {
  it('two processes starting at the same moment apply each file exactly once', async () => {
    const name = `folio_mig_${randomBase62(10).toLowerCase()}`;
    const adminUrl = new URL(process.env.DATABASE_URL!);
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const a = createPostgresDb({ url: url.toString(), poolSize: 2 });
    const b = createPostgresDb({ url: url.toString(), poolSize: 2 });
    try {
      const [ra, rb] = await Promise.all([migratePostgres(a), migratePostgres(b)]);
      const total = ra.applied.length + rb.applied.length;
      expect(total).toBeGreaterThan(0);
      // one of them did all the work, the other waited on the lock and found nothing to do
      expect(Math.min(ra.applied.length, rb.applied.length)).toBe(0);
      const { rows } = await a.query<{ name: string; n: number }>('SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name');
      expect(rows.length).toBe(total);
      for (const r of rows) expect(r.n).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});

/** Settings a transaction starts with (`transactionSettings`): the caller's at BEGIN, local to it. */
describe.each([
  ['pglite', (settings: () => Record<string, string> | undefined) => createPgliteDb({ inMemory: true, transactionSettings: settings })],
  ...(process.env.DATABASE_URL
    ? [['postgres', async (settings: () => Record<string, string> | undefined) => createPostgresDb({ url: process.env.DATABASE_URL!, poolSize: 2, transactionSettings: settings })] as const]
    : []),
] as const)('Db contract, transaction settings: %s', (_name, make) => {
  it('sets them in each transaction as its caller has them, quoted, and nowhere else', async () => {
    let current: Record<string, string> | undefined = { 'folio.actor': "tok'en; DROP TABLE x" };
    const db = await make(() => current);
    try {
      const read = (q: { query: Db['query'] }) => q.query<{ v: string | null }>(`SELECT NULLIF(current_setting('folio.actor', true), '') AS v`).then((r) => r.rows[0].v);
      expect(await db.transaction((tx) => read(tx))).toBe("tok'en; DROP TABLE x");
      current = { 'folio.actor': 'second' };
      expect(await db.transaction((tx) => read(tx))).toBe('second');
      // local to the transaction: a pooled connection does not keep it
      expect(await read(db)).toBeNull();
      current = undefined;
      expect(await db.transaction((tx) => read(tx))).toBeNull();
    } finally {
      await db.close();
    }
  });
});
