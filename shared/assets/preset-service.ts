import { bumpContentVersion } from '../content/org-versions.js';
import type { Db } from '../adapters/db/index.js';
import { deletePreset, upsertPreset } from './preset-repository.js';
import type { ImagePresetOptions } from './types.js';

/**
 * Preset writes bump the org's content version: URLs are built with the preset's operations
 * resolved, so cached GraphQL responses holding the old URLs must not be served again.
 */
export function savePreset(db: Db, orgId: string, name: string, options: ImagePresetOptions) {
  return db.transaction(async (tx) => {
    const saved = await upsertPreset(tx, orgId, name, options);
    await bumpContentVersion(tx, orgId);
    return saved;
  });
}

export function removePreset(db: Db, orgId: string, name: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await deletePreset(tx, orgId, name);
    if (removed) await bumpContentVersion(tx, orgId);
    return removed;
  });
}
