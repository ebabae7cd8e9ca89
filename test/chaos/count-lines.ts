/**
 * Counts the chaos suite's log lines in the workers' chDB folder, from a process of its own (chDB
 * opens one data folder per process, and the test process may hold another). Prints one JSON
 * object: per fault, the lines counted and the distinct lines among them.
 * Configuration: CHAOS_DATA_DIR (the workers' DATA_DIR), CHAOS_ORG_ID; CHAOS_OUTPUT=paths prints each
 * path with its count instead.
 */
import { createAnalyticsStore } from '../../shared/adapters/clickhouse/index.js';

const store = await createAnalyticsStore({
  clickhouseUrl: undefined,
  clickhouseDatabase: 'folio',
  clickhouseRawTtlDays: 395, // as the workers set it: a different value would make the migration runner alter the table
  dataDir: process.env.CHAOS_DATA_DIR!,
});
let answer: string;
if (process.env.CHAOS_OUTPUT === 'paths') {
  // Several workers processes, each with its own engine: the caller merges the paths to find a
  // line counted by two of them.
  const rows = await store.query<{ path: string; n: number }>(`SELECT path, count() AS n FROM cdn_logs WHERE org_id = {org:String} GROUP BY path`, { org: process.env.CHAOS_ORG_ID! });
  answer = JSON.stringify(Object.fromEntries(rows.map((r) => [r.path, Number(r.n)])));
} else {
  const rows = await store.query<{ fault: string; counted: number; distinct: number }>(
    `SELECT splitByChar('/', path)[3] AS fault, count() AS counted, uniqExact(path) AS distinct
     FROM cdn_logs WHERE org_id = {org:String} GROUP BY fault`,
    { org: process.env.CHAOS_ORG_ID! },
  );
  answer = JSON.stringify(Object.fromEntries(rows.map((r) => [r.fault, { counted: Number(r.counted), distinct: Number(r.distinct) }])));
}
await store.close();
// Exit once the answer is written: it is often several hundred KiB, a pipe takes 64 KiB at a
// time, and exiting at once cut it short; the engine's threads would keep the process alive.
process.stdout.write(answer + '\n', () => process.exit(0));
