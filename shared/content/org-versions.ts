import type { Queryable } from '../adapters/db/index.js';

// The counters live on the organization row, which the organization repository owns; content
// writes bump them from here, as before.
export { bumpContentVersion, bumpSchemaVersion } from '../tenancy/organization-repository.js';

/**
 * Serializes model writes of one org, so name-collision checks see every committed model. An
 * advisory lock rather than the organization row: entry writes update that row last (content
 * version) while holding a share lock on their model, and the two must not wait on each other.
 */
export async function lockModels(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`models:${orgId}`]);
}
