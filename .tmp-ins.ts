import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os'; import path from 'node:path';
import { createChdbStore } from './shared/analytics/chdb.js';
import { migrateClickHouse } from './shared/analytics/migrate.js';
import { createEnricher } from './shared/ingest/enrich.js';
import { parseBody } from './shared/ingest/parse-body.js';
import { ROW_COLUMNS } from './shared/ingest/row-tsv.js';
import { generateTraffic, ndjson, toCanonical } from './test/fixtures/cdn-logs/traffic.js';
const dir = await mkdtemp(path.join(os.tmpdir(), 'ins-'));
const s = await createChdbStore({ path: dir });
await migrateClickHouse(s, { rawTtlDays: 30 });
const en = await createEnricher();
const bufs: Buffer[] = [];
for (let k = 0; k < 20; k++) {
  const recs = parseBody(ndjson(generateTraffic({ count: 10000, startMs: Date.now() - 40 * 3600e3, spanMs: 39 * 3600e3, seed: k + 1 }).map(toCanonical))).records;
  bufs.push(Buffer.from(recs.map((r) => en.toTsv(r, 'o', 'd')).join('\n') + '\n'));
}
const run = async (label: string, tag: string) => {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (const [i, b] of bufs.entries()) await s.insertJsonEachRow('cdn_logs', b, { dedupToken: `${tag}-${i}`, format: 'TabSeparated', columns: ROW_COLUMNS });
  const c = process.cpuUsage(c0); const wall = performance.now() - t0;
  console.log(label, 'cpu µs/row', ((c.user + c.system) / 200000).toFixed(1), 'wall rows/s', Math.round(200000 / (wall / 1000)));
};
await run('all MVs   ', 'a');
await run('all MVs   ', 'a2');
for (const mv of ['cdn_paths_daily_mv', 'cdn_referers_daily_mv', 'cdn_audience_daily_mv']) await s.command(`DROP VIEW ${mv}`);
await run('no daily  ', 'b');
for (const mv of ['cdn_paths_hourly_mv', 'cdn_referers_hourly_mv', 'cdn_audience_hourly_mv']) await s.command(`DROP VIEW ${mv}`);
await run('totals MV ', 'c');
await s.command('DROP VIEW cdn_totals_hourly_mv');
await run('raw only  ', 'd');
await s.close(); await rm(dir, { recursive: true, force: true });
