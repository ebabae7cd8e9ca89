import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound } from '../errors/index.js';
import { newId } from '../ids.js';
import type { ClientIpMode } from '../ingest/enrich.js';
import type { PublishableImageSizes } from '../assets/publishable-image-limits.js';
import type { ImageWatermark } from '../assets/types.js';
import { DELIVERY_SETTINGS_COLUMNS, DELIVERY_SETTINGS_FIELDS, deliverySettingsOf, type DeliverySettingsRow } from './delivery-settings.js';

// The one module that names the `organizations` table: every read and write of it is here, the
// other domains call these functions or, to keep a hot statement one statement, JOIN the named
// relations below (Postgres flattens them: the plan is the table's own).

export interface Organization {
  id: string;
  slug: string;
  name: string;
  schemaVersion: number;
  contentVersion: number;
  createdAt: Date;
  /** active; suspended by the operator; deleting: a deletion job is removing its data. */
  status: 'active' | 'suspended' | 'deleting';
  suspendedReason: string | null;
}

interface OrgRow {
  id: string;
  slug: string;
  name: string;
  schema_version: number;
  content_version: number;
  created_at: Date;
  suspended_at: Date | null;
  suspended_reason: string | null;
  deletion_requested_at: Date | null;
}

const toOrganization = (r: OrgRow): Organization => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  schemaVersion: r.schema_version,
  contentVersion: r.content_version,
  createdAt: r.created_at,
  status: r.deletion_requested_at ? 'deleting' : r.suspended_at ? 'suspended' : 'active',
  suspendedReason: r.suspended_reason,
});

export async function insertOrganization(db: Queryable, input: { name: string; slug: string }): Promise<Organization> {
  const { rows } = await db.query<OrgRow>(
    `INSERT INTO organizations (id, slug, name) VALUES ($1, $2, $3)
     ON CONFLICT (slug) DO NOTHING RETURNING *`,
    [newId(), input.slug, input.name],
  );
  if (rows.length === 0) throw conflict(`An organization with slug "${input.slug}" already exists.`);
  return toOrganization(rows[0]);
}

/** Deletes an organization and, by cascade, every row that belongs to it; returns the rows deleted (0 or 1). */
export async function deleteOrganization(db: Queryable, id: string): Promise<number> {
  const r = await db.query('DELETE FROM organizations WHERE id = $1', [id]);
  return r.rowCount;
}

/**
 * Marks the organization as being deleted and suspends it (both kept if already set); returns
 * its slug, or null for an unknown organization.
 */
export async function markOrganizationDeleting(db: Queryable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ slug: string }>(
    `UPDATE organizations SET deletion_requested_at = coalesce(deletion_requested_at, now()), suspended_at = coalesce(suspended_at, now())
     WHERE id = $1 RETURNING slug`,
    [id],
  );
  return rows[0]?.slug ?? null;
}

export async function findOrganization(db: Queryable, id: string): Promise<Organization | null> {
  const { rows } = await db.query<OrgRow>('SELECT * FROM organizations WHERE id = $1', [id]);
  return rows[0] ? toOrganization(rows[0]) : null;
}

/**
 * Suspends (`reason` a string or null) or resumes (`suspend` false) an organization; 404 when
 * unknown, 409 while it is being deleted (it stays refused until it is gone).
 */
export async function setSuspended(db: Queryable, id: string, change: { suspend: true; reason: string | null } | { suspend: false }): Promise<Organization> {
  const { rows } = await db.query<OrgRow>(
    `UPDATE organizations SET suspended_at = CASE WHEN $2 THEN coalesce(suspended_at, now()) END,
       suspended_reason = CASE WHEN $2 THEN $3::text END
     WHERE id = $1 AND deletion_requested_at IS NULL RETURNING *`,
    [id, change.suspend, change.suspend ? change.reason : null],
  );
  if (rows[0]) return toOrganization(rows[0]);
  if (await findOrganization(db, id)) throw conflict('This organization is being deleted.');
  throw notFound('Organization');
}

/**
 * The suspended organizations, with those being deleted and those deleted within the last minute:
 * a token of a deleted organization may still sit in an instance's token cache (for at most 5 s),
 * and must not answer for an organization that no longer exists meanwhile.
 */
export async function listSuspendedOrganizations(db: Queryable): Promise<Array<{ id: string; reason: string | null; deleting: boolean }>> {
  const { rows } = await db.query<{ id: string; suspended_reason: string | null; deleting: boolean }>(
    `SELECT id, suspended_reason, deletion_requested_at IS NOT NULL AS deleting FROM organizations WHERE suspended_at IS NOT NULL
     UNION ALL
     SELECT id, NULL, true FROM organization_deletions WHERE finished_at IS NULL OR finished_at > now() - interval '1 minute'`,
    [],
    { background: true },
  );
  return rows.map((r) => ({ id: r.id, reason: r.suspended_reason, deleting: r.deleting }));
}

/** Whether the organization has ever had a token (revoked ones count). */
export async function hasTokens(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM tokens WHERE org_id = $1 LIMIT 1', [orgId]);
  return rows.length > 0;
}

export async function findOrganizationBySlug(db: Queryable, slug: string): Promise<Organization | null> {
  const { rows } = await db.query<OrgRow>('SELECT * FROM organizations WHERE slug = $1', [slug]);
  return rows[0] ? toOrganization(rows[0]) : null;
}

export async function listOrganizations(db: Queryable, page: { offset: number; limit: number }): Promise<{ items: Organization[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<OrgRow>('SELECT * FROM organizations ORDER BY created_at, id LIMIT $1 OFFSET $2', [page.limit, page.offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations'),
  ]);
  return { items: items.rows.map(toOrganization), total: total.rows[0].n };
}

/** The organization's allowed web origins (CORS), or null for any; null too for an unknown org. */
export async function findAllowedOrigins(db: Queryable, orgId: string): Promise<string[] | null> {
  const { rows } = await db.query<{ allowed_origins: string[] | null }>('SELECT allowed_origins FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.allowed_origins ?? null;
}

export async function updateAllowedOrigins(db: Queryable, orgId: string, origins: string[] | null): Promise<void> {
  await db.query('UPDATE organizations SET allowed_origins = $2 WHERE id = $1', [orgId, origins]);
}

/** What the organization keeps of client IPs in its raw CDN logs; null for an unknown org. */
export async function findClientIps(db: Queryable, orgId: string): Promise<ClientIpMode | null> {
  const { rows } = await db.query<{ client_ips: ClientIpMode }>('SELECT client_ips FROM organizations WHERE id = $1', [orgId]);
  return rows[0]?.client_ips ?? null;
}

export async function updateClientIps(db: Queryable, orgId: string, mode: ClientIpMode): Promise<void> {
  await db.query('UPDATE organizations SET client_ips = $2 WHERE id = $1', [orgId, mode]);
}

/** The org's delivery settings, as the management API names them. */
export interface DeliverySettingsRecord {
  cacheMaxAge: number;
  cacheStaleWhileRevalidate: number;
  trustedDocuments: boolean;
  /** Null: publishable keys may ask for any size. */
  publishableImageSizes: PublishableImageSizes | null;
  /** Null: publishable keys may name any preset, or none. */
  publishableImagePresets: string[] | null;
  /** Null: derivatives carry no watermark unless their transformation or preset names one. */
  imageWatermark: ImageWatermark | null;
}

/** Changes the members given (null clears a limit) and returns all of them. */
export async function updateDeliverySettings(db: Queryable, orgId: string, patch: Partial<DeliverySettingsRecord>): Promise<DeliverySettingsRecord> {
  const { rows } = await db.query<DeliverySettingsRow>(
    `UPDATE organizations o SET cache_max_age = COALESCE($2, cache_max_age),
       cache_stale_while_revalidate = COALESCE($3, cache_stale_while_revalidate),
       trusted_documents = COALESCE($4, trusted_documents),
       publishable_image_sizes = CASE WHEN $5::boolean THEN $6::jsonb ELSE publishable_image_sizes END,
       publishable_image_presets = CASE WHEN $7::boolean THEN $8::text[] ELSE publishable_image_presets END,
       image_watermark = CASE WHEN $9::boolean THEN $10::jsonb ELSE image_watermark END
     WHERE id = $1 RETURNING ${DELIVERY_SETTINGS_COLUMNS}`,
    [
      orgId,
      patch.cacheMaxAge ?? null,
      patch.cacheStaleWhileRevalidate ?? null,
      patch.trustedDocuments ?? null,
      patch.publishableImageSizes !== undefined,
      patch.publishableImageSizes ? JSON.stringify(patch.publishableImageSizes) : null,
      patch.publishableImagePresets !== undefined,
      patch.publishableImagePresets ?? null,
      patch.imageWatermark !== undefined,
      patch.imageWatermark ? JSON.stringify(patch.imageWatermark) : null,
    ],
  );
  const s = deliverySettingsOf(rows[0]);
  return {
    cacheMaxAge: s.maxAge,
    cacheStaleWhileRevalidate: s.staleWhileRevalidate,
    trustedDocuments: s.trustedDocuments,
    publishableImageSizes: s.publishableImages.sizes,
    publishableImagePresets: s.publishableImages.presets,
    imageWatermark: s.imageWatermark,
  };
}

/**
 * Where a trigger announces each new content version, as '<org id>:<version>' (see
 * `shared/delivery/content-versions.ts`, which also parses it).
 */
export const CONTENT_VERSIONS_CHANNEL = 'folio_content_versions';

/**
 * Version counters of an organization. Both are bumped inside the writing transaction, so a
 * reader never sees the new counter with the old data (the response cache keys on them). The
 * new content version reaches this process's listeners as the transaction commits (other
 * processes hear the trigger's NOTIFY).
 */
export async function bumpContentVersion(tx: Queryable, orgId: string): Promise<number> {
  const { rows } = await tx.query<{ v: number }>(
    'UPDATE organizations SET content_version = content_version + 1 WHERE id = $1 RETURNING content_version AS v',
    [orgId],
  );
  const v = rows[0]?.v ?? 0;
  if (rows[0]) tx.echoOnCommit(CONTENT_VERSIONS_CHANNEL, `${orgId}:${v}`);
  return v;
}

export async function bumpSchemaVersion(tx: Queryable, orgId: string): Promise<number> {
  const { rows } = await tx.query<{ v: number }>(
    'UPDATE organizations SET schema_version = schema_version + 1 WHERE id = $1 RETURNING schema_version AS v',
    [orgId],
  );
  return rows[0]?.v ?? 0;
}

/** The org's schema version and its stored GraphQL limits (unchecked JSON): one primary-key read. Null for an unknown org. */
export async function findSchemaState(db: Queryable, orgId: string): Promise<{ schemaVersion: number; limits: unknown } | null> {
  const { rows } = await db.query<{ schema_version: number; limits: unknown }>('SELECT schema_version, limits FROM organizations WHERE id = $1', [orgId]);
  return rows[0] ? { schemaVersion: rows[0].schema_version, limits: rows[0].limits } : null;
}

/** The org's content version; null for an unknown org. Read per cached GraphQL request, hence prepared. */
export async function findContentVersion(db: Queryable, orgId: string): Promise<number | null> {
  const { rows } = await db.query<{ v: number }>('SELECT content_version AS v FROM organizations WHERE id = $1', [orgId], { prepare: true });
  return rows[0]?.v ?? null;
}

export async function findVersionRetention(db: Queryable, orgId: string): Promise<{ versionsKept: number; versionsDays: number | null }> {
  const { rows } = await db.query<{ versions_kept: number; versions_days: number | null }>('SELECT versions_kept, versions_days FROM organizations WHERE id = $1', [orgId]);
  return { versionsKept: rows[0].versions_kept, versionsDays: rows[0].versions_days };
}

export async function updateVersionRetention(db: Queryable, orgId: string, patch: { versionsKept?: number; versionsDays?: number | null }) {
  await db.query(
    `UPDATE organizations SET versions_kept = COALESCE($2, versions_kept), versions_days = CASE WHEN $3::boolean THEN $4 ELSE versions_days END WHERE id = $1`,
    [orgId, patch.versionsKept ?? null, patch.versionsDays !== undefined, patch.versionsDays ?? null],
  );
  return findVersionRetention(db, orgId);
}

export async function findAuditRetentionDays(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query<{ d: number }>('SELECT audit_retention_days AS d FROM organizations WHERE id = $1', [orgId]);
  return rows[0].d;
}

export async function updateAuditRetentionDays(db: Queryable, orgId: string, days: number): Promise<void> {
  await db.query('UPDATE organizations SET audit_retention_days = $2 WHERE id = $1', [orgId, days]);
}

/** SQL: the audit retention in days of the organization whose id is the parameter `param` (`$1`…). */
export const auditRetentionDaysOf = (param: string) => `(SELECT audit_retention_days FROM organizations WHERE id = ${param})`;

/** SQL relation (id, slug, name) to JOIN where a list names its organizations. */
export const ORG_NAMES = '(SELECT id, slug, name FROM organizations)';

/** SQL relation of what admitting a token or a session reads of its organization, to JOIN by id. */
export const ORG_ADMISSION = `(SELECT id, slug, allowed_origins, ${DELIVERY_SETTINGS_FIELDS.join(', ')} FROM organizations)`;

/** SQL relation (id, versions_kept, versions_days) of every organization's entry-version retention. */
export const ORG_VERSION_RETENTION = '(SELECT id, versions_kept, versions_days FROM organizations)';
