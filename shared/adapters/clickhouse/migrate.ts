import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sqlDir } from '../../paths.js';
import type { AnalyticsStore } from './analytics-store.js';

export interface ClickHouseMigrationReport {
  applied: string[];
  skipped: number;
}

const MIGRATION_FILE = /^\d{4}-[a-z0-9-]+\.sql$/;

/**
 * Applies `sql/clickhouse/NNNN-verb-noun.sql` in order, each once, recorded in
 * `folio_migrations`. ClickHouse has no locks, so concurrent starts are made safe the other way:
 * every statement in those files is idempotent (`IF NOT EXISTS`), and two processes applying the
 * same file at once both succeed and both record it (the table keeps one row per name).
 * `{{RAW_TTL_DAYS}}` in a file is replaced by the configured value; a later change of the value
 * is applied to the raw table's TTL here as well.
 */
export async function migrateClickHouse(
  store: AnalyticsStore,
  options: { rawTtlDays: number; dir?: string },
): Promise<ClickHouseMigrationReport> {
  const dir = options.dir ?? sqlDir('clickhouse');
  await store.command(`CREATE TABLE IF NOT EXISTS folio_migrations
    (name String, applied_at DateTime('UTC') DEFAULT now())
    ENGINE = ReplacingMergeTree ORDER BY name`);
  const done = new Set((await store.query<{ name: string }>('SELECT DISTINCT name FROM folio_migrations')).map((r) => r.name));
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const text = (await readFile(path.join(dir, file), 'utf8')).replaceAll('{{RAW_TTL_DAYS}}', String(options.rawTtlDays));
    for (const statement of splitStatements(text)) await store.command(statement);
    await store.command('INSERT INTO folio_migrations (name) VALUES ({name:String})', { name: file });
    applied.push(file);
  }
  await applyRawTtl(store, options.rawTtlDays);
  return { applied, skipped: files.length - applied.length };
}

/** Statements end with `;` at the end of a line; `--` comment lines are dropped. */
export function splitStatements(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

async function applyRawTtl(store: AnalyticsStore, days: number): Promise<void> {
  const rows = await store.query<{ q: string }>(
    `SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'cdn_logs'`,
  );
  if (rows.length === 0 || rows[0].q.includes(`toIntervalDay(${days})`)) return;
  // materialize_ttl_after_modify = 0: old parts expire at their next merge, no rewrite now
  await store.command(
    `ALTER TABLE cdn_logs MODIFY TTL toDateTime(timestamp) + toIntervalDay(${Number(days)}) SETTINGS materialize_ttl_after_modify = 0`,
  );
}
