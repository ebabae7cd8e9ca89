import { conflict, notFound, unprocessable } from '../../errors/index.js';
import { newId } from '../../ids.js';
import type { ContentDeps } from '../deps.js';
import { findEntryRowsOf } from '../entry-repository.js';
import { isProblem, normalizeDateTime } from '../scalars.js';
import type { ReleaseInput, ReleaseRunInput } from './release-input.js';
import { findDueReleases, findRelease, insertRelease, listReleases, putReleaseEntries, updateReleaseState, type Release, type ReleaseAction, type ReleaseEntry } from './release-repository.js';
import { runRelease } from './run-release.js';

export { listReleases, type Release };

type Deps = Pick<ContentDeps, 'db'>;

/** The current version of each entry (in the order given, once each), or the 422 naming the unknown or deleted ones. */
async function currentVersions(deps: Deps, orgId: string, ids: string[]): Promise<ReleaseEntry[]> {
  const unique = [...new Set(ids)];
  const found = await findEntryRowsOf(deps.db, orgId, unique);
  const problems = unique.flatMap((id) => {
    const preview = found.get(id)?.preview;
    if (!preview) return [`entries: entry "${id}" not found`];
    return preview.status === 'DELETED' ? [`entries: entry "${id}" is deleted`] : [];
  });
  if (problems.length > 0) throw unprocessable('The release names entries it cannot hold.', problems);
  return unique.map((id) => ({ entryId: id, versionId: found.get(id)!.preview!.versionId }));
}

export async function requireRelease(deps: Deps, orgId: string, id: string): Promise<Release> {
  const release = await findRelease(deps.db, orgId, id);
  if (!release) throw notFound(`Release "${id}"`);
  return release;
}

/** A new release of the entries, each at its current version. */
export async function createRelease(deps: Deps, orgId: string, input: ReleaseInput): Promise<Release> {
  const entries = await currentVersions(deps, orgId, input.entries);
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await insertRelease(tx, orgId, id, input.name);
    await putReleaseEntries(tx, orgId, id, entries);
  });
  return requireRelease(deps, orgId, id);
}

/** Adds entries to a release not yet run, or takes entries it holds again at their current version. */
export async function addReleaseEntries(deps: Deps, orgId: string, id: string, ids: string[]): Promise<Release> {
  const entries = await currentVersions(deps, orgId, ids);
  await deps.db.transaction(async (tx) => {
    const release = await findRelease(tx, orgId, id, { forUpdate: true });
    if (!release) throw notFound(`Release "${id}"`);
    if (release.status === 'PUBLISHED' || release.status === 'UNPUBLISHED') throw conflict(`The release is ${release.status.toLowerCase()}; create a new one.`);
    await putReleaseEntries(tx, orgId, id, entries);
  });
  return requireRelease(deps, orgId, id);
}

/**
 * Publishes or unpublishes a release now (`done`, the release afterwards), or schedules it for
 * `at` (`scheduled`: the scheduled-publish tick runs it then). Now: 422 naming every blocking
 * entry, and nothing changes. A publish needs a release not published; an unpublish a published one.
 */
export async function startRelease(deps: Deps, orgId: string, id: string, action: ReleaseAction, input: ReleaseRunInput): Promise<{ release: Release; scheduled: boolean }> {
  let at: Date | undefined;
  if (input.at !== undefined) {
    const when = normalizeDateTime(input.at);
    if (isProblem(when)) throw unprocessable('The schedule is invalid.', [`at: ${when.problem}`]);
    at = new Date(when);
  }
  const outcome = await deps.db.transaction(async (tx) => {
    const release = await findRelease(tx, orgId, id, { forUpdate: true });
    if (!release) throw notFound(`Release "${id}"`);
    if (action === 'publish' && release.status === 'PUBLISHED') throw conflict('The release is already published.');
    if (action === 'unpublish' && release.status !== 'PUBLISHED') throw conflict(`The release is not published (status ${release.status}).`);
    if (at) {
      await updateReleaseState(tx, orgId, id, { status: 'SCHEDULED', scheduledAction: action, scheduledAt: at });
      return { problems: null };
    }
    const run = await runRelease(tx, orgId, release, action, new Date());
    return { problems: 'problems' in run ? run.problems : null };
  });
  if (outcome.problems) throw unprocessable(`The release cannot be ${action}ed: nothing was changed.`, outcome.problems);
  return { release: await requireRelease(deps, orgId, id), scheduled: at !== undefined };
}

/**
 * Runs every scheduled release whose time has come (all orgs), each in its own transaction,
 * re-checked under its row lock (another tick or a change of schedule may have come first). A
 * release blocked by an entry becomes FAILED with the problems, and nothing of it changes.
 * Returns how many ran.
 */
export async function runDueReleases(deps: Deps, now = new Date(), limit = 100): Promise<number> {
  let ran = 0;
  for (const { orgId, id } of await findDueReleases(deps.db, now, limit)) {
    const done = await deps.db.transaction(async (tx) => {
      const release = await findRelease(tx, orgId, id, { forUpdate: true });
      if (!release || release.status !== 'SCHEDULED' || !release.scheduledAt || new Date(release.scheduledAt) > now || !release.scheduledAction) return false;
      const run = await runRelease(tx, orgId, release, release.scheduledAction, new Date());
      if ('problems' in run) await updateReleaseState(tx, orgId, id, { status: 'FAILED', problems: run.problems });
      return true;
    });
    if (done) ran++;
  }
  return ran;
}
