import type { Queryable } from '../adapters/db/index.js';

/**
 * Version counters of an organization. Both are bumped inside the writing transaction, so a
 * reader never sees the new counter with the old data (the response cache keys on them).
 */
export async function bumpContentVersion(tx: Queryable, orgId: string): Promise<number> {
  const { rows } = await tx.query<{ v: number }>(
    'UPDATE organizations SET content_version = content_version + 1 WHERE id = $1 RETURNING content_version AS v',
    [orgId],
  );
  return rows[0]?.v ?? 0;
}

export async function bumpSchemaVersion(tx: Queryable, orgId: string): Promise<number> {
  const { rows } = await tx.query<{ v: number }>(
    'UPDATE organizations SET schema_version = schema_version + 1 WHERE id = $1 RETURNING schema_version AS v',
    [orgId],
  );
  return rows[0]?.v ?? 0;
}

/**
 * Serializes model writes of one org, so name-collision checks see every committed model. An
 * advisory lock rather than the organization row: entry writes update that row last (content
 * version) while holding a share lock on their model, and the two must not wait on each other.
 */
export async function lockModels(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`models:${orgId}`]);
}
