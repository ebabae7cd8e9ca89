import { insertAsset } from '../../shared/assets/asset-repository.js';
import type { Queryable } from '../../shared/adapters/db/index.js';
import { newId, newVersionId } from '../../shared/ids.js';

/**
 * An asset row straight through the asset repository (no upload), for tests that exercise
 * references to assets rather than uploads.
 */
export async function insertTestAsset(db: Queryable, orgId: string, type: 'IMAGE' | 'FILE', fileName: string): Promise<string> {
  const id = newId();
  await insertAsset(db, orgId, id, {
    versionId: newVersionId(),
    type,
    contentType: type === 'IMAGE' ? 'image/png' : 'text/plain',
    size: 10,
    width: type === 'IMAGE' ? 4 : null,
    height: type === 'IMAGE' ? 4 : null,
    duration: null,
    posterKey: null,
    placeholder: null,
  }, { fileName });
  return id;
}
