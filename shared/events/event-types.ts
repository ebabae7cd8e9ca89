/**
 * Every event a change can produce. `entry.imported` is the one batched type: a bulk import
 * writes one per batch of up to 1,000 lines, listing each entry, instead of one event per line.
 */
export const EVENT_TYPES = [
  'entry.created',
  'entry.saved',
  'entry.published',
  'entry.unpublished',
  'entry.archived',
  'entry.deleted',
  'entry.scheduled',
  'entry.imported',
  'model.changed',
  'model.deleted',
  'component.changed',
  'component.deleted',
  'asset.created',
  'asset.updated',
  'asset.deleted',
  'list.changed',
  'section.changed',
  'author.changed',
  'label.changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What a subscription may list: an event type, a family (`entry.*`) or every event (`*`).
 * Unknown names are refused rather than never matching.
 */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return EVENT_TYPES.some((t) => t.startsWith(pattern.slice(0, -1)));
  return (EVENT_TYPES as readonly string[]).includes(pattern);
}

export function matchesEvent(patterns: readonly string[], type: string): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}
