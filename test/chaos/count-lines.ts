/**
 * Counts the chaos suite's log lines in the workers' chDB folder, from a process of its own (chDB
 * opens one data folder per process, and the test process may hold another). Prints one JSON
 * object: per fault, the lines counted and the distinct lines among them.
 * Configuration: CHAOS_DATA_DIR (the workers' DATA_DIR), CHAOS_ORG_ID.
 */
import { createAnalyticsStore } from '../../shared/adapters/clickhouse/index.js';

const store = await createAnalyticsStore({
  clickhouseUrl: undefined,
  clickhouseDatabase: 'folio',
  clickhouseRawTtlDays: 395, // as the workers set it: a different value would make the migration runner alter the table
  dataDir: process.env.CHAOS_DATA_DIR!,
});
const rows = await store.query<{ fault: string; counted: number; distinct: number }>(
  `SELECT splitByChar('/', path)[3] AS fault, count() AS counted, uniqExact(path) AS distinct
   FROM cdn_logs WHERE org_id = {org:String} GROUP BY fault`,
  { org: process.env.CHAOS_ORG_ID! },
);
await store.close();
process.stdout.write(JSON.stringify(Object.fromEntries(rows.map((r) => [r.fault, { counted: Number(r.counted), distinct: Number(r.distinct) }]))) + '\n');
