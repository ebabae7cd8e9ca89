import type { Queryable } from '../adapters/db/index.js';
import type { Locale } from './locale-types.js';

interface LocaleDbRow {
  code: string;
  name: string;
  is_default: boolean;
  fallback: string | null;
  created_at: Date;
  updated_at: Date;
}

const fromDb = (r: LocaleDbRow): Locale => ({
  code: r.code,
  name: r.name,
  default: r.is_default,
  fallback: r.fallback,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The org's locales, the default first, then by code. */
export async function findLocales(db: Queryable, orgId: string): Promise<Locale[]> {
  const { rows } = await db.query<LocaleDbRow>(
    'SELECT code, name, is_default, fallback, created_at, updated_at FROM locales WHERE org_id = $1 ORDER BY is_default DESC, code',
    [orgId],
  );
  return rows.map(fromDb);
}

export async function insertLocale(tx: Queryable, orgId: string, l: Pick<Locale, 'code' | 'name' | 'default' | 'fallback'>): Promise<void> {
  await tx.query('INSERT INTO locales (org_id, code, name, is_default, fallback) VALUES ($1, $2, $3, $4, $5)', [orgId, l.code, l.name, l.default, l.fallback]);
}

export async function updateLocale(tx: Queryable, orgId: string, l: Pick<Locale, 'code' | 'name' | 'default' | 'fallback'>): Promise<void> {
  await tx.query('UPDATE locales SET name = $3, is_default = $4, fallback = $5, updated_at = now() WHERE org_id = $1 AND code = $2', [
    orgId,
    l.code,
    l.name,
    l.default,
    l.fallback,
  ]);
}

/** Clears the default mark (before another locale takes it: one default per org is an index). */
export async function clearDefaultLocale(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('UPDATE locales SET is_default = false, updated_at = now() WHERE org_id = $1 AND is_default', [orgId]);
}

export async function deleteLocaleRow(tx: Queryable, orgId: string, code: string): Promise<void> {
  await tx.query('DELETE FROM locales WHERE org_id = $1 AND code = $2', [orgId, code]);
}

/** Removes a locale's values from every entry row (the versions keep theirs). */
export async function dropLocaleValues(tx: Queryable, orgId: string, code: string): Promise<void> {
  await tx.query(`UPDATE entries SET locales = NULLIF(locales - $2, '{}'::jsonb) WHERE org_id = $1 AND locales ? $2`, [orgId, code]);
}

/** Whether any entry holds values in a non-default locale. */
export async function anyLocaleValues(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM entries WHERE org_id = $1 AND locales IS NOT NULL LIMIT 1', [orgId]);
  return rows.length > 0;
}
