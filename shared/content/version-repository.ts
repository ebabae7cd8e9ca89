import type { Queryable } from '../adapters/db/index.js';
import type { LocaleValues } from './locale-types.js';
import { ORG_VERSION_RETENTION } from '../tenancy/organization-repository.js';

/**
 * All SQL on `entry_versions` (written by triggers on `entries`: see the migration); every
 * statement is scoped by org.
 */

export interface VersionSummary {
  versionId: string;
  status: string;
  title: string | null;
  savedAt: Date;
  /**
   * Who saved it: the member (id, email) or the token (id, name) of the request; null for the
   * scheduler's changes. `tokenId` is kept for clients of the token-only answer.
   */
  savedBy: { type: 'member' | 'token'; id: string; name: string | null; tokenId?: string } | null;
}

export interface StoredVersion extends VersionSummary {
  model: string;
  siteId: string;
  slug: string | null;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  /** Values in the non-default locales (present only when it had some). */
  locales?: LocaleValues;
}

interface Row {
  version_id: string;
  status: string;
  title: string | null;
  saved_at: Date;
  saved_by: string | null;
  saved_by_type: 'member' | 'token' | null;
  saved_by_name: string | null;
  model_alias: string;
  site_id: string;
  slug: string | null;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  locales: LocaleValues | null;
}

const savedByOf = (r: Pick<Row, 'saved_by' | 'saved_by_type' | 'saved_by_name'>): VersionSummary['savedBy'] => {
  if (r.saved_by === null) return null;
  if (r.saved_by_type === 'member') return { type: 'member', id: r.saved_by, name: r.saved_by_name };
  return { type: 'token', id: r.saved_by, name: r.saved_by_name, tokenId: r.saved_by };
};

/** Who saved a version, named: a member by their email, a token of the org by its name (revoked ones keep it). */
const SAVED_BY = `v.saved_by, v.saved_by_type, CASE WHEN v.saved_by_type = 'member'
  THEN (SELECT p.email FROM people p WHERE p.id = v.saved_by)
  ELSE (SELECT t.name FROM tokens t WHERE t.id = v.saved_by AND t.org_id = v.org_id) END AS saved_by_name`;

/** An entry's versions, newest first. */
export async function listVersions(db: Queryable, orgId: string, entryId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<Row>(
      `SELECT v.version_id, v.status, v.title, v.saved_at, ${SAVED_BY} FROM entry_versions v WHERE v.org_id = $1 AND v.entry_id = $2 ORDER BY v.seq DESC LIMIT $3 OFFSET $4`,
      [orgId, entryId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM entry_versions WHERE org_id = $1 AND entry_id = $2', [orgId, entryId]),
  ]);
  return { items: items.rows.map((r): VersionSummary => ({ versionId: r.version_id, status: r.status, title: r.title, savedAt: r.saved_at, savedBy: savedByOf(r) })), total: total.rows[0].n };
}

export async function findVersion(db: Queryable, orgId: string, entryId: string, versionId: string): Promise<StoredVersion | null> {
  const { rows } = await db.query<Row>(
    `SELECT v.version_id, v.status, v.title, v.saved_at, ${SAVED_BY}, v.model_alias, v.site_id, v.slug, v.labels, v.attrs, v.fields, v.locales
     FROM entry_versions v WHERE v.org_id = $1 AND v.entry_id = $2 AND v.version_id = $3`,
    [orgId, entryId, versionId],
  );
  const r = rows[0];
  if (!r) return null;
  return { versionId: r.version_id, status: r.status, title: r.title, savedAt: r.saved_at, savedBy: savedByOf(r), model: r.model_alias, siteId: r.site_id, slug: r.slug, labels: r.labels, attrs: r.attrs, fields: r.fields, ...(r.locales ? { locales: r.locales } : {}) };
}

/**
 * Drops versions past each organization's retention: beyond its `versions_kept` newest per entry,
 * or older than its `versions_days` — never an entry's current version. Returns how many went.
 */
export async function pruneVersions(db: Queryable): Promise<number> {
  const r = await db.query(
    `DELETE FROM entry_versions v
     USING (
       SELECT ev.org_id, ev.entry_id, ev.version_id, ev.saved_at,
              row_number() OVER (PARTITION BY ev.org_id, ev.entry_id ORDER BY ev.seq DESC) AS rank
       FROM entry_versions ev
     ) ranked, ${ORG_VERSION_RETENTION} o
     WHERE v.org_id = ranked.org_id AND v.entry_id = ranked.entry_id AND v.version_id = ranked.version_id
       AND o.id = v.org_id
       AND (ranked.rank > o.versions_kept OR (o.versions_days IS NOT NULL AND ranked.saved_at < now() - make_interval(days => o.versions_days)))
       AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.org_id = v.org_id AND e.id = v.entry_id AND e.in_preview AND e.version_id = v.version_id)`,
  );
  return r.rowCount ?? 0;
}

// An organization's retention is a column of its row, which the organization repository owns.
export { findVersionRetention, updateVersionRetention } from '../tenancy/organization-repository.js';
