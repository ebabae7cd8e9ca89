import { conflict, unprocessable } from '../errors/index.js';
import type { EventType } from '../events/event-types.js';
import { recordEntryEvents } from '../events/record-events.js';
import type { ContentDeps } from './deps.js';
import { checkVersion, lockEntry } from './entries.js';
import type { ScheduleInput } from './entry-input.js';
import { findDueScheduled, findDueUnpublish, updateEntryRow } from './entry-repository.js';
import { publish, retire, schedule, unpublish, type EntryRows } from './entry-transitions.js';
import { entryView, type EntryView } from './entry-view.js';
import { bumpContentVersion } from './org-versions.js';
import { isProblem, normalizeDateTime } from './scalars.js';
import { releaseUniqueValues } from './validations/unique-values.js';

export type Transition = 'publish' | 'unpublish' | 'archive' | 'delete';

const TRANSITION_EVENTS: Record<Transition, EventType> = {
  publish: 'entry.published',
  unpublish: 'entry.unpublished',
  archive: 'entry.archived',
  delete: 'entry.deleted',
};

/** Runs one lifecycle transition on an entry of the org. */
export async function transitionEntry(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  id: string,
  transition: Transition,
  options: { expectedVersionId?: string } = {},
): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const current = await lockEntry(tx, orgId, id);
    // publishing what the person saw, not a version saved since by someone else
    checkVersion(current.preview, options.expectedVersionId);
    const now = new Date();
    let next: EntryRows;
    if (transition === 'publish') next = await publish(tx, current, now);
    else if (transition === 'unpublish') next = await unpublish(tx, current, now);
    else next = await retire(tx, current, transition === 'archive' ? 'ARCHIVED' : 'DELETED', now);
    // a deleted entry no longer holds values under unique rules (an archived one still does)
    if (transition === 'delete') await releaseUniqueValues(tx, orgId, [id]);
    if (next !== current) {
      await recordEntryEvents(tx, orgId, [{ type: TRANSITION_EVENTS[transition], rowId: next.preview.rowId }]);
      await bumpContentVersion(tx, orgId);
    }
    return next;
  });
  return entryView(rows.preview, rows.delivery);
}

/**
 * Schedules a publication (`at`), an unpublication (`unpublishAt`; null cancels one), or both.
 * An unpublication must lie in the future, after the publication when both are given, and needs
 * an entry that is published or being scheduled.
 */
export async function scheduleEntry(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  id: string,
  input: ScheduleInput,
  options: { expectedVersionId?: string } = {},
): Promise<EntryView> {
  const problems: string[] = [];
  const dateOf = (name: string, value: string | null | undefined): Date | null | undefined => {
    if (value === undefined || value === null) return value;
    const when = normalizeDateTime(value);
    if (isProblem(when)) {
      problems.push(`${name}: ${when.problem}`);
      return undefined;
    }
    return new Date(when);
  };
  const at = dateOf('at', input.at);
  const unpublishAt = dateOf('unpublishAt', input.unpublishAt);
  const now = new Date();
  if (unpublishAt && unpublishAt <= now) problems.push('unpublishAt: must be in the future');
  if (unpublishAt && at && unpublishAt <= at) problems.push('unpublishAt: must come after "at"');
  if (problems.length > 0) throw unprocessable('The schedule is invalid.', problems);
  const rows = await deps.db.transaction(async (tx) => {
    let next = await lockEntry(tx, orgId, id);
    // a schedule publishes the version seen: one saved meanwhile by someone else is not taken on trust
    checkVersion(next.preview, options.expectedVersionId);
    if (at) next = await schedule(tx, next, at, now);
    if (unpublishAt !== undefined) {
      if (unpublishAt && !next.delivery && next.preview.status !== 'SCHEDULED') {
        throw conflict(`The entry is not published or scheduled (status ${next.preview.status}): there is nothing to unpublish.`);
      }
      // a schedule, not content: the version stays
      next = { ...next, preview: await updateEntryRow(tx, next.preview.rowId, { unpublishAt }) };
      if (next.delivery?.rowId === next.preview.rowId) next.delivery = next.preview;
    }
    await recordEntryEvents(tx, orgId, [{ type: 'entry.scheduled', rowId: next.preview.rowId }]);
    await bumpContentVersion(tx, orgId);
    return next;
  });
  return entryView(rows.preview, rows.delivery);
}

/**
 * Unpublishes every entry whose scheduled unpublish has come (all orgs), each in its own
 * transaction, once: the unpublish clears the schedule, and an entry no longer published by then
 * only loses its schedule. Returns how many were unpublished.
 */
export async function unpublishDueEntries(deps: Pick<ContentDeps, 'db'>, now = new Date(), limit = 500): Promise<number> {
  let unpublished = 0;
  for (const { orgId, id } of await findDueUnpublish(deps.db, now, limit)) {
    const done = await deps.db.transaction(async (tx) => {
      const current = await lockEntry(tx, orgId, id);
      const due = current.preview.unpublishAt;
      if (!due || due > now) return false;
      if (!current.delivery) {
        await updateEntryRow(tx, current.preview.rowId, { unpublishAt: null });
        return false;
      }
      const next = await unpublish(tx, current, new Date());
      await recordEntryEvents(tx, orgId, [{ type: 'entry.unpublished', rowId: next.preview.rowId }]);
      await bumpContentVersion(tx, orgId);
      return true;
    });
    if (done) unpublished++;
  }
  return unpublished;
}

/**
 * Publishes every scheduled entry whose time has come (all orgs), each in its own transaction.
 * Idempotent: an entry published, unscheduled or changed meanwhile is re-checked under its
 * row lock and left alone. Returns how many were published.
 */
export async function publishDueEntries(deps: Pick<ContentDeps, 'db'>, now = new Date(), limit = 500): Promise<number> {
  let published = 0;
  for (const { orgId, id } of await findDueScheduled(deps.db, now, limit)) {
    const done = await deps.db.transaction(async (tx) => {
      const current = await lockEntry(tx, orgId, id);
      const p = current.preview;
      if (p.status !== 'SCHEDULED' || !p.scheduledAt || p.scheduledAt > now) return false;
      const next = await publish(tx, current, new Date(), p.scheduledAt);
      await recordEntryEvents(tx, orgId, [{ type: 'entry.published', rowId: next.preview.rowId }]);
      await bumpContentVersion(tx, orgId);
      return true;
    });
    if (done) published++;
  }
  return published;
}
