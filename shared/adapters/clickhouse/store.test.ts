import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsStore, type AnalyticsStore } from './index.js';
import { migrateClickHouse } from './migrate.js';
import { ROW_COLUMNS, rowToTsv } from '../../ingest/row-tsv.js';

// Contract test of the analytics store on the real engine (chDB, or the server when
// CLICKHOUSE_URL is set): migrations, idempotent inserts through the rollups, typed results.
describe('analytics store', () => {
  let dir: string;
  let store: AnalyticsStore;
  const org = `org_${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-ch-'));
    store = await createAnalyticsStore({
      clickhouseUrl: process.env.CLICKHOUSE_URL,
      clickhouseDatabase: 'folio_test',
      clickhouseRawTtlDays: 30,
      dataDir: dir,
    });
  });
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000;
  const row = (i: number) =>
    JSON.stringify({
      org_id: org,
      distribution_id: 'd1',
      timestamp: base + i * 1000,
      path: `/p${i % 3}`,
      bytes: 5_000_000_000 + i,
      serve_time_ms: 10,
      cache_status: i % 2 ? 'HIT' : 'MISS',
      country: 'NL',
    });
  const batch = (from: number, n: number) => Buffer.from(Array.from({ length: n }, (_, i) => row(from + i)).join('\n') + '\n');

  it('applies each migration once and re-running is a no-op', async () => {
    const again = await migrateClickHouse(store, { rawTtlDays: 30 });
    expect(again.applied).toEqual([]);
    expect(again.skipped).toBeGreaterThanOrEqual(2);
    const tables = await store.query<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'cdn_%' ORDER BY name`,
    );
    expect(tables.map((t) => t.name)).toEqual([
      'cdn_audience_daily',
      'cdn_audience_daily_mv',
      'cdn_audience_hourly',
      'cdn_audience_hourly_mv',
      'cdn_client_error_paths_daily',
      'cdn_client_error_paths_daily_mv',
      'cdn_client_error_paths_hourly',
      'cdn_client_error_paths_hourly_mv',
      'cdn_entries_daily',
      'cdn_entries_daily_mv',
      'cdn_entries_hourly',
      'cdn_entries_hourly_mv',
      'cdn_images_daily',
      'cdn_images_daily_mv',
      'cdn_images_hourly',
      'cdn_images_hourly_mv',
      'cdn_logs',
      'cdn_minutes',
      'cdn_minutes_mv',
      'cdn_paths_daily',
      'cdn_paths_daily_mv',
      'cdn_paths_hourly',
      'cdn_paths_hourly_mv',
      'cdn_referers_daily',
      'cdn_referers_daily_mv',
      'cdn_referers_hourly',
      'cdn_referers_hourly_mv',
      'cdn_server_error_paths_daily',
      'cdn_server_error_paths_daily_mv',
      'cdn_server_error_paths_hourly',
      'cdn_server_error_paths_hourly_mv',
      'cdn_stats_daily',
      'cdn_stats_daily_counted_mv',
      'cdn_stats_hourly',
      'cdn_stats_hourly_counted_mv',
      'cdn_status_hourly',
      'cdn_status_hourly_mv',
      'cdn_totals_hourly',
      'cdn_totals_hourly_mv',
    ]);
  });

  it('counts a batch inserted twice with the same token once, in the raw table and the rollups', async () => {
    await store.insertJsonEachRow('cdn_logs', batch(0, 10), { dedupToken: `${org}-a` });
    await store.insertJsonEachRow('cdn_logs', batch(0, 10), { dedupToken: `${org}-a` });
    await store.insertJsonEachRow('cdn_logs', batch(10, 4), { dedupToken: `${org}-b` });
    const [raw] = await store.query<{ n: number; b: number }>(
      'SELECT count() AS n, sum(bytes) AS b FROM cdn_logs WHERE org_id = {org:String}',
      { org },
    );
    expect(raw.n).toBe(14);
    // 64-bit sums come back as JSON numbers on both engines
    expect(typeof raw.b).toBe('number');
    const [totals] = await store.query<{ n: number; hits: number }>(
      'SELECT sum(requests) AS n, sum(hits) AS hits FROM cdn_totals_hourly WHERE org_id = {org:String}',
      { org },
    );
    expect(totals).toEqual({ n: 14, hits: 7 });
    // the daily rollups are filled from the hourly blocks: deduplicated through both levels
    for (const table of ['cdn_paths_hourly', 'cdn_paths_daily']) {
      const paths = await store.query<{ path: string; n: number }>(
        `SELECT path, sum(requests) AS n FROM ${table} WHERE org_id = {org:String} GROUP BY path ORDER BY path`,
        { org },
      );
      expect(paths).toEqual([
        { path: '/p0', n: 5 },
        { path: '/p1', n: 5 },
        { path: '/p2', n: 4 },
      ]);
    }
    const [audience] = await store.query<{ n: number }>(
      `SELECT sum(requests) AS n FROM cdn_audience_daily WHERE org_id = {org:String} AND country = 'NL'`,
      { org },
    );
    expect(audience.n).toBe(14);
  });

  it('inserts TabSeparated rows in column order, with tabs, newlines and backslashes escaped', async () => {
    const tricky = 'Agent\twith\ttabs\nand a newline \\ and a backslash';
    const row = rowToTsv({
      org_id: org, distribution_id: 'tsv', timestamp: base + 1234, client_ip: '192.0.2.1', method: 'GET', host: 'h',
      path: '/a\tb', status: 200, bytes: 10, serve_time_ms: 3, cache_status: 'HIT', referer: '', referer_host: '',
      user_agent: tricky, country: 'NL', continent: 'EU', device: 'desktop', browser: 'Other', os: 'Other', is_bot: 0, bot_name: '', visitor: '0', entry_id: '',
      utm_source: 'news\tletter', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '',
    });
    await store.insertJsonEachRow('cdn_logs', Buffer.from(row + '\n'), { dedupToken: `${org}-tsv`, format: 'TabSeparated', columns: ROW_COLUMNS });
    const rows = await store.query<{ ms: number; path: string; ua: string; source: string }>(
      `SELECT toUnixTimestamp64Milli(timestamp) AS ms, path, user_agent AS ua, utm_source AS source FROM cdn_logs
       WHERE org_id = {org:String} AND distribution_id = 'tsv'`,
      { org },
    );
    expect(rows).toEqual([{ ms: base + 1234, path: '/a\tb', ua: tricky, source: 'news\tletter' }]);
  });

  it('applies a changed raw TTL to the table', async () => {
    await migrateClickHouse(store, { rawTtlDays: 45 });
    const [t] = await store.query<{ q: string }>(
      `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'cdn_logs'`,
    );
    expect(t.q).toContain('toIntervalDay(45)');
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('binds parameters of every type as exactly the values given, whatever they hold', async () => {
    const hostile = "x' OR 1=1 --\\'\n{org:String}\t\u00e9";
    const [r] = await store.query<{ s: string; n: number; big: number; d: string; ids: string[]; matched: number }>(
      `SELECT {s:String} AS s, {n:UInt32} + 1 AS n, {big:Int64} AS big, toString({d:Date}) AS d, {ids:Array(String)} AS ids,
         (SELECT count() FROM cdn_logs WHERE org_id = {s:String}) AS matched`,
      { s: hostile, n: 41, big: 1_700_000_000_000, d: '2026-01-02', ids: ["a'b", 'c\\d', ''] },
    );
    expect(r).toEqual({ s: hostile, n: 42, big: 1_700_000_000_000, d: '2026-01-02', ids: ["a'b", 'c\\d', ''], matched: 0 });
    const [limited] = await store.query<{ n: number }>('SELECT count() AS n FROM (SELECT number FROM numbers(10) LIMIT {l:UInt32})', { l: 3 });
    expect(limited.n).toBe(3);
  });

  it('answers a statement with parameters, and takes an insert, while a slow statement runs (no turn taking)', async () => {
    const finished: string[] = [];
    const slow = store.query('SELECT sleep(2), {a:String} AS a', { a: 'slow' }).then(() => finished.push('slow'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.query('SELECT {b:String} AS b', { b: 'fast' }).then(() => finished.push('fast'));
    await store.insertJsonEachRow('cdn_logs', batch(500, 1), { dedupToken: `${org}-while-slow` }).then(() => finished.push('insert'));
    await slow;
    expect(finished).toEqual(['fast', 'insert', 'slow']);
  });
});

// A store made before bots, visitors and minutes existed, brought up to date: its rows and any
// batch spooled before the upgrade (19 columns) read as human, with no visitor, and still count.
describe('analytics store: the audience-depth migration on existing data', () => {
  let dir: string;
  let store: AnalyticsStore;
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
  const oldLine = (i: number) =>
    ['o', 'd', `${(hour + i * 1000) / 1000}.000`, '8.8.8.8', 'GET', 'h', `/p${i}`, '200', '10', '5', 'HIT', '', '', 'curl/8.5.0', 'US', 'NA', 'other', 'Other', 'Other'].join('\t');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-ch-old-'));
    const { createChdbStore } = await import('./chdb.js');
    store = await createChdbStore({ path: path.join(dir, 'chdb') });
    const { sqlDir } = await import('../../paths.js');
    const { copyFile, mkdir } = await import('node:fs/promises');
    const before = path.join(dir, 'sql-before');
    await mkdir(before);
    for (const f of ['0001-create-cdn-logs.sql', '0002-create-rollups.sql']) await copyFile(path.join(sqlDir('clickhouse'), f), path.join(before, f));
    await migrateClickHouse(store, { rawTtlDays: 30, dir: before });
    const columns = ROW_COLUMNS.slice(0, 19);
    await store.insertJsonEachRow('cdn_logs', Buffer.from(oldLine(1) + '\n'), { dedupToken: 'old-1', format: 'TabSeparated', columns });
  });
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('adds the columns with defaults, and a 19-column line spooled before inserts with all 28 named', async () => {
    const report = await migrateClickHouse(store, { rawTtlDays: 30 });
    expect(report.applied).toEqual([
      '0003-create-audience-depth.sql',
      '0004-create-image-traffic.sql',
      '0005-create-entry-traffic.sql',
      '0006-count-stats.sql',
      '0007-alter-rollups-count-bots.sql',
      '0008-drop-bot-rollups.sql',
      '0009-add-campaign-columns.sql',
    ]);
    await store.insertJsonEachRow('cdn_logs', Buffer.from(oldLine(2) + '\n'), { dedupToken: 'old-2', format: 'TabSeparated', columns: ROW_COLUMNS });
    const rows = await store.query<{ path: string; is_bot: number; bot_name: string; visitor: number; entry_id: string }>(
      'SELECT path, is_bot, bot_name, visitor, entry_id FROM cdn_logs ORDER BY path',
    );
    expect(rows).toEqual([
      { path: '/p1', is_bot: 0, bot_name: '', visitor: 0, entry_id: '' },
      { path: '/p2', is_bot: 0, bot_name: '', visitor: 0, entry_id: '' },
    ]);
    // both in the totals as before; the line inserted after the migration is in the new rollups, with no visitor
    const [totals] = await store.query<{ n: number }>('SELECT sum(requests) AS n FROM cdn_totals_hourly');
    expect(totals.n).toBe(2);
    const [stats] = await store.query<{ v: number; q: number[] }>('SELECT uniqMerge(visitors) AS v, quantilesTimingMerge(0.5, 0.95, 0.99)(serve_time) AS q FROM cdn_stats_hourly');
    expect(stats).toEqual({ v: 0, q: [5, 5, 5] });
    // the states count their requests from 0006 on: the line before it counts 0 there
    const [counted] = await store.query<{ hourly: number; daily: number }>(
      'SELECT (SELECT sum(requests) FROM cdn_stats_hourly) AS hourly, (SELECT sum(requests) FROM cdn_stats_daily) AS daily',
    );
    expect(counted).toEqual({ hourly: 1, daily: 1 });
    const [status] = await store.query<{ n: number }>('SELECT sum(requests) AS n FROM cdn_status_hourly');
    expect(status.n).toBe(1);
    // lines of no entry are in no entry rollup
    const [entries] = await store.query<{ n: number }>('SELECT count() AS n FROM cdn_entries_hourly');
    expect(entries.n).toBe(0);
  });
});

// A store whose bots' figures were tables of their own (before 0007), brought up to date: its
// rollups count the bots as the raw lines do, once even when the migration is applied again, and
// lines inserted afterwards are counted the same way by the views.
describe('analytics store: the bot-row migration on existing data', () => {
  let dir: string;
  let store: AnalyticsStore;
  const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
  // [hour offset, path, referer host, country, bot name ('' for a human)]
  const lines: Array<[number, string, string, string, string]> = [
    [1, '/a', 'google.com', 'US', ''],
    [1, '/a', 'google.com', 'US', 'Googlebot'],
    [1, '/a', '', 'US', 'Googlebot'],
    [1, '/b', '', 'GB', 'bingbot'],
    [2, '/a', 'google.com', 'GB', ''],
    [2, '/b', '', 'GB', 'Googlebot'],
    [26, '/b', 't.co', 'US', ''],
    [26, '/b', 't.co', 'US', 'curl'],
  ];
  const tsv = ([h, p, ref, country, bot]: (typeof lines)[number], i: number) =>
    ['o', 'd', `${(day + h * 3_600_000 + i * 1000) / 1000}.000`, '8.8.8.8', 'GET', 'h', p, '200', String(100 + i), String(5 + i), i % 2 ? 'HIT' : 'MISS',
      '', ref, bot || 'Mozilla/5.0', country, country === 'US' ? 'NA' : 'EU', 'desktop', 'Chrome', 'Linux', bot ? '1' : '0', bot, String(i + 1), ''].join('\t');
  const insert = (from: number, to: number, token: string) =>
    store.insertJsonEachRow('cdn_logs', Buffer.from(lines.slice(from, to).map((l, i) => tsv(l, from + i)).join('\n') + '\n'), { dedupToken: token, format: 'TabSeparated', columns: ROW_COLUMNS.slice(0, 23) });

  // each rollup's requests and bot requests per key, next to the same count made from the raw lines
  const expectSplit = async () => {
    for (const [rollup, keys, raw] of [
      ['cdn_paths_hourly', 'hour, path', 'toStartOfHour(timestamp) AS hour, path'],
      ['cdn_paths_daily', 'day, path', 'toDate(timestamp) AS day, path'],
      ['cdn_referers_hourly', 'hour, referer_host', 'toStartOfHour(timestamp) AS hour, referer_host'],
      ['cdn_referers_daily', 'day, referer_host', 'toDate(timestamp) AS day, referer_host'],
      ['cdn_audience_hourly', 'hour, country, continent, device', 'toStartOfHour(timestamp) AS hour, country, continent, device'],
      ['cdn_audience_daily', 'day, country, continent, device', 'toDate(timestamp) AS day, country, continent, device'],
    ]) {
      const got = await store.query(`SELECT ${keys}, toInt64(sum(requests)) AS n, toInt64(sum(bot_requests)) AS bots FROM ${rollup} GROUP BY ${keys} ORDER BY ALL`);
      const want = await store.query(`SELECT ${raw}, toInt64(count()) AS n, toInt64(countIf(is_bot = 1)) AS bots FROM cdn_logs GROUP BY ALL ORDER BY ALL`);
      expect(got, rollup).toEqual(want);
    }
    const totals = await store.query(
      `SELECT hour, is_bot, toString(bot_name) AS bot, toInt64(sum(requests)) AS n, toInt64(sum(bytes)) AS b, toInt64(sum(serve_time_ms)) AS s,
         toInt64(sum(hits)) AS hits, toInt64(sum(misses)) AS misses
       FROM cdn_totals_hourly GROUP BY hour, is_bot, bot HAVING n != 0 ORDER BY ALL`,
    );
    const rawTotals = await store.query(
      `SELECT toStartOfHour(timestamp) AS hour, is_bot, toString(bot_name) AS bot, toInt64(count()) AS n, toInt64(sum(bytes)) AS b,
         toInt64(sum(serve_time_ms)) AS s, toInt64(countIf(cache_status = 'HIT')) AS hits, toInt64(countIf(cache_status = 'MISS')) AS misses
       FROM cdn_logs GROUP BY ALL ORDER BY ALL`,
    );
    expect(totals).toEqual(rawTotals);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-ch-bots-'));
    const { createChdbStore } = await import('./chdb.js');
    store = await createChdbStore({ path: path.join(dir, 'chdb') });
    const { sqlDir } = await import('../../paths.js');
    const { copyFile, mkdir, readdir } = await import('node:fs/promises');
    const before = path.join(dir, 'sql-before');
    await mkdir(before);
    for (const f of (await readdir(sqlDir('clickhouse'))).filter((f) => f < '0007')) await copyFile(path.join(sqlDir('clickhouse'), f), path.join(before, f));
    await migrateClickHouse(store, { rawTtlDays: 30, dir: before });
    await insert(0, 6, 'before');
  });
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the bots in the existing rollups, once when applied twice, then drops the bots’ tables', async () => {
    const { sqlDir } = await import('../../paths.js');
    const { readFile } = await import('node:fs/promises');
    const { splitStatements } = await import('./migrate.js');
    // the migration, as a start that crashed before recording it would apply it again
    const statements = splitStatements(await readFile(path.join(sqlDir('clickhouse'), '0007-alter-rollups-count-bots.sql'), 'utf8'));
    for (const statement of statements) await store.command(statement);
    await expectSplit();
    for (const statement of statements) await store.command(statement);
    await expectSplit();

    const report = await migrateClickHouse(store, { rawTtlDays: 30 });
    expect(report.applied).toEqual(['0007-alter-rollups-count-bots.sql', '0008-drop-bot-rollups.sql', '0009-add-campaign-columns.sql']);
    const left = await store.query<{ name: string }>("SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'cdn_bot%' ORDER BY name");
    expect(left).toEqual([]);
    await expectSplit();

    // lines after the upgrade, in the hours and day of the old ones, are counted by the views
    await insert(6, 8, 'after');
    await expectSplit();
    const [bots] = await store.query<{ n: number }>('SELECT toInt64(sum(requests)) AS n FROM cdn_totals_hourly WHERE is_bot = 1');
    expect(bots.n).toBe(5);
  });
});
