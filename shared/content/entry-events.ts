import type { EventType } from '../events/event-types.js';
import type { EntryStatus } from './model-types.js';

/**
 * The events of a write that created an entry or changed its content, from the status it left:
 * created (or saved), then published or scheduled when the same write did that too — a receiver
 * that only listens to `entry.published` still hears of an entry created published.
 */
export function contentEventTypes(created: boolean, status: EntryStatus): EventType[] {
  const types: EventType[] = [created ? 'entry.created' : 'entry.saved'];
  if (status === 'PUBLISHED') types.push('entry.published');
  else if (status === 'SCHEDULED' && created) types.push('entry.scheduled');
  return types;
}

/** The `{type, rowId}` pairs of `recordEntryEvents` for one written entry version row. */
export const contentEvents = (created: boolean, after: { status: EntryStatus; rowId: number }) =>
  contentEventTypes(created, after.status).map((type) => ({ type, rowId: after.rowId }));
