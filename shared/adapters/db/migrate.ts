import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sqlDir } from '../../paths.js';
import type { Db } from './db.js';

export interface MigrationReport {
  applied: string[];
  skipped: number;
}

const MIGRATION_FILE = /^\d{4}-[a-z0-9-]+\.sql$/;

/**
 * Applies `sql/postgres/NNNN-verb-noun.sql` files in order, each once, recorded in
 * `schema_migrations`. The whole run holds a transaction-scoped advisory lock, so two processes
 * starting at the same moment apply each file exactly once (the second waits, then skips).
 */
export async function migratePostgres(db: Db, dir = sqlDir('postgres')): Promise<MigrationReport> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('folio:migrations'))`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(await readFile(path.join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return { applied, skipped: files.length - applied.length };
  });
}
