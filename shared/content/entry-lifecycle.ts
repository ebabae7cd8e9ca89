import { unprocessable } from '../errors/index.js';
import type { EventType } from '../events/event-types.js';
import { recordEntryEvents } from '../events/record-events.js';
import type { ContentDeps } from './deps.js';
import { lockEntry } from './entries.js';
import { findDueScheduled } from './entry-repository.js';
import { publish, retire, schedule, unpublish, type EntryRows } from './entry-transitions.js';
import { entryView, type EntryView } from './entry-view.js';
import { bumpContentVersion } from './org-versions.js';
import { isProblem, normalizeDateTime } from './scalars.js';

export type Transition = 'publish' | 'unpublish' | 'archive' | 'delete';

const TRANSITION_EVENTS: Record<Transition, EventType> = {
  publish: 'entry.published',
  unpublish: 'entry.unpublished',
  archive: 'entry.archived',
  delete: 'entry.deleted',
};

/** Runs one lifecycle transition on an entry of the org. */
export async function transitionEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, transition: Transition): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const current = await lockEntry(tx, orgId, id);
    const now = new Date();
    let next: EntryRows;
    if (transition === 'publish') next = await publish(tx, current, now);
    else if (transition === 'unpublish') next = await unpublish(tx, current, now);
    else next = await retire(tx, current, transition === 'archive' ? 'ARCHIVED' : 'DELETED', now);
    if (next !== current) {
      await recordEntryEvents(tx, orgId, [{ type: TRANSITION_EVENTS[transition], rowId: next.preview.rowId }]);
      await bumpContentVersion(tx, orgId);
    }
    return next;
  });
  return entryView(rows.preview, rows.delivery);
}

export async function scheduleEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, at: string): Promise<EntryView> {
  const when = normalizeDateTime(at);
  if (isProblem(when)) throw unprocessable('The schedule is invalid.', [`at: ${when.problem}`]);
  const rows = await deps.db.transaction(async (tx) => {
    const current = await lockEntry(tx, orgId, id);
    const next = await schedule(tx, current, new Date(when), new Date());
    await recordEntryEvents(tx, orgId, [{ type: 'entry.scheduled', rowId: next.preview.rowId }]);
    await bumpContentVersion(tx, orgId);
    return next;
  });
  return entryView(rows.preview, rows.delivery);
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
