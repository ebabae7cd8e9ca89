import { recordAudit } from '../../audit/record-audit.js';
import { conflict, notFound } from '../../errors/index.js';
import type { ContentDeps } from '../deps.js';
import { deleteReleaseRow, findRelease, updateReleaseState, type Release } from './release-repository.js';

type Deps = Pick<ContentDeps, 'db'>;

/**
 * Takes a scheduled release off the schedule: a scheduled publish goes back to OPEN (editable,
 * runnable again), a scheduled unpublish of a published release back to PUBLISHED. Under the
 * row lock the scheduled-publish tick takes too, so a release is either run or cancelled, never
 * both; 409 when it is not scheduled (any more). Audited as `release.cancelled`.
 */
export async function cancelRelease(deps: Deps, orgId: string, id: string): Promise<Release> {
  return deps.db.transaction(async (tx) => {
    const release = await findRelease(tx, orgId, id, { forUpdate: true });
    if (!release) throw notFound(`Release "${id}"`);
    if (release.status !== 'SCHEDULED') throw conflict(`Only a scheduled release can be cancelled; this one is ${release.status}.`);
    const status = release.scheduledAction === 'unpublish' ? 'PUBLISHED' : 'OPEN';
    await updateReleaseState(tx, orgId, id, { status });
    await recordAudit(tx, orgId, [
      { action: 'release.cancelled', subject: { type: 'release', id }, changes: { status: { before: 'SCHEDULED', after: status }, scheduledAction: release.scheduledAction, scheduledAt: release.scheduledAt } },
    ]);
    const after = await findRelease(tx, orgId, id);
    return after!;
  });
}

/**
 * Deletes a release that is not live: OPEN, SCHEDULED (to publish), FAILED or UNPUBLISHED. A
 * published one — or one scheduled to be unpublished, which is published until then — is 409:
 * unpublish it first, so no live entry loses the release that put it there. The entries
 * themselves are untouched. Audited as `release.deleted`.
 */
export async function deleteRelease(deps: Deps, orgId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const release = await findRelease(tx, orgId, id, { forUpdate: true });
    if (!release) throw notFound(`Release "${id}"`);
    if (release.status === 'PUBLISHED' || (release.status === 'SCHEDULED' && release.scheduledAction === 'unpublish')) {
      throw conflict('A published release cannot be deleted: unpublish it first (POST /management/v1/releases/:id/unpublish).');
    }
    await deleteReleaseRow(tx, orgId, id);
    await recordAudit(tx, orgId, [
      { action: 'release.deleted', subject: { type: 'release', id }, changes: { name: release.name, status: release.status, entries: release.entries.map((e) => e.entryId) } },
    ]);
  });
}
