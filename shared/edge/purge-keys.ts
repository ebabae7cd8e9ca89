import { EVENT_TYPES, type EventType } from '../events/event-types.js';
import { anyEntriesKey, assetKey, cmsKey, entryKey, modelKey, orgKey, type CmsKind } from './surrogate-keys.js';

/** An event as the dispatcher reads it from the outbox. */
export interface PurgeEvent {
  orgId: string;
  type: string;
  subject: string;
  model: string | null;
  data: Record<string, unknown>;
}

/** Events of drafts: nothing delivery shows changes (`purgeKeysOf` gives them no keys). */
const DRAFT_EVENTS: readonly EventType[] = ['entry.created', 'entry.saved', 'entry.scheduled'];

/** The events that change what delivery answers; purge targets subscribe to these by default. */
export const PURGE_EVENTS: readonly EventType[] = EVENT_TYPES.filter((t) => !DRAFT_EVENTS.includes(t));

const CMS_OF: Partial<Record<string, CmsKind>> = {
  'list.changed': 'lists',
  'section.changed': 'sections',
  'author.changed': 'authors',
  'label.changed': 'labels',
};

/**
 * The surrogate keys an event makes stale (see `surrogate-keys.ts` for what each names): an
 * entry published or withdrawn purges the responses that read it by id, the collections of its
 * model and the cross-model lists; a model or component change purges the whole org (its schema changed); an
 * asset its own key and the asset lists; CMS objects their kind. Drafts (`entry.saved`,
 * `entry.created`, `entry.scheduled`) change nothing delivery shows: no keys.
 */
export function purgeKeysOf(event: PurgeEvent): string[] {
  const org = event.orgId;
  const idOf = () => event.subject.slice(event.subject.indexOf(':') + 1);
  switch (event.type) {
    case 'entry.published':
    case 'entry.unpublished':
    case 'entry.archived':
    case 'entry.deleted':
      return [entryKey(org, idOf()), ...(event.model ? [modelKey(org, event.model)] : []), anyEntriesKey(org)];
    case 'entry.imported': {
      const entries = (event.data.entries as { id: string; event: string }[] | undefined) ?? [];
      const published = entries.filter((e) => e.event === 'published');
      if (published.length === 0) return [];
      return [...(event.model ? [modelKey(org, event.model)] : []), anyEntriesKey(org), ...published.map((e) => entryKey(org, e.id))];
    }
    case 'model.changed':
    case 'model.deleted':
    case 'component.changed':
    case 'component.deleted':
      return [orgKey(org)];
    case 'asset.created':
      return [cmsKey(org, 'assets')];
    case 'asset.updated':
    case 'asset.deleted':
      return [assetKey(org, idOf()), cmsKey(org, 'assets')];
    default: {
      const kind = CMS_OF[event.type];
      return kind ? [cmsKey(org, kind)] : [];
    }
  }
}
