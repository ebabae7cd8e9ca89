import type { Queryable } from '../../adapters/db/index.js';
import { recordEntryEvents } from '../../events/record-events.js';
import { prepareEntries } from '../entry-prepare.js';
import { findEntryRowsOf, lockEntryKeys } from '../entry-repository.js';
import { publish, unpublish, type EntryRows } from '../entry-transitions.js';
import { listModels } from '../model-repository.js';
import { bumpContentVersion } from '../org-versions.js';
import { putReleaseEntries, updateReleaseState, type Release, type ReleaseAction } from './release-repository.js';

/**
 * Publishes or unpublishes every entry of a release inside the caller's transaction, or nothing:
 * each entry is locked and checked first — still there, not deleted, still at the version the
 * release holds, valid against its model as it is now (publish), live (unpublish) — and the
 * first problem of any entry stops the whole release with every blocking entry named. Then
 * each entry goes through the single publish path (`publish` / `unpublish`) with its
 * `entry.published` / `entry.unpublished` event, so webhooks and purges go out as for single
 * publishes; one content version bump makes the response cache see all of it at once, and a
 * reader's statement sees all of it or none (one transaction). The release then holds the
 * versions the run left, so it can be unpublished and published again.
 */
export async function runRelease(tx: Queryable, orgId: string, release: Release, action: ReleaseAction, now: Date): Promise<{ problems: string[] } | { changed: number }> {
  const ids = release.entries.map((e) => e.entryId);
  await lockEntryKeys(tx, orgId, ids);
  const found = await findEntryRowsOf(tx, orgId, ids, { forUpdate: true });
  const problems: string[] = [];
  const current: EntryRows[] = [];
  for (const { entryId, versionId } of release.entries) {
    const rows = found.get(entryId);
    const name = `entry "${entryId}"`;
    if (!rows?.preview) problems.push(`${name}: not found`);
    else if (rows.preview.status === 'DELETED') problems.push(`${name}: is deleted`);
    else if (action === 'unpublish' && !rows.delivery) problems.push(`${name}: is not published (status ${rows.preview.status})`);
    else if (action === 'publish' && rows.preview.versionId !== versionId) {
      problems.push(`${name}: changed since it was added (version ${versionId} was added, it is now at ${rows.preview.versionId}); add it again to release its current version`);
    } else current.push({ preview: rows.preview, delivery: rows.delivery });
  }
  if (action === 'publish' && problems.length === 0) problems.push(...(await contentProblems(tx, orgId, current)));
  if (problems.length > 0) return { problems };

  const next: EntryRows[] = [];
  for (const rows of current) next.push(action === 'publish' ? await publish(tx, rows, now) : await unpublish(tx, rows, now));
  const changed = next.filter((rows, i) => rows !== current[i]);
  await recordEntryEvents(tx, orgId, changed.map((rows) => ({ type: action === 'publish' ? 'entry.published' : 'entry.unpublished', rowId: rows.preview.rowId })));
  if (changed.length > 0) await bumpContentVersion(tx, orgId);
  await putReleaseEntries(tx, orgId, release.id, next.map((rows) => ({ entryId: rows.preview.id, versionId: rows.preview.versionId })));
  await updateReleaseState(tx, orgId, release.id, action === 'publish' ? { status: 'PUBLISHED', publishedAt: now } : { status: 'UNPUBLISHED', unpublishedAt: now });
  return { changed: changed.length };
}

/** Each entry's content checked against its model as it is now (rules may have changed since it was saved). */
async function contentProblems(tx: Queryable, orgId: string, entries: EntryRows[]): Promise<string[]> {
  const models = new Map((await listModels(tx, orgId)).map((m) => [m.alias, m]));
  const problems: string[] = [];
  const checked = entries.filter(({ preview }) => {
    if (models.has(preview.modelAlias)) return true;
    problems.push(`entry "${preview.id}": its model "${preview.modelAlias}" no longer exists`);
    return false;
  });
  const prepared = await prepareEntries(
    tx,
    orgId,
    checked.map(({ preview }) => ({ model: models.get(preview.modelAlias)!, fields: preview.fields, locales: preview.locales ?? undefined, labels: preview.labels, siteId: preview.siteId })),
  );
  prepared.forEach((p, i) => {
    if ('problems' in p) problems.push(...p.problems.map((problem) => `entry "${checked[i].preview.id}": ${problem}`));
  });
  return problems;
}
