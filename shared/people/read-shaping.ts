import { canRead } from './request-policy.js';
import { withoutHidden, type PolicyActor } from './policy.js';

type EntryLike = { model?: unknown; fields?: Record<string, unknown>; locales?: Record<string, Record<string, unknown> | null> };

const isEntryLike = (v: unknown): v is EntryLike & { model: string } =>
  typeof v === 'object' && v !== null && typeof (v as EntryLike).model === 'string' && typeof (v as EntryLike).fields === 'object';

/**
 * An entry answer (one entry, a version, or a list of them) as the actor may see it: entries of
 * models the role may not read are left out of lists, and hidden fields are absent. Returns
 * `refused` for a single entry of an unreadable model.
 */
export function shapeEntryResult(actor: PolicyActor, result: unknown): { result: unknown } | 'refused' {
  if (Array.isArray(result)) {
    return { result: result.filter((e) => !isEntryLike(e) || canRead(actor, e.model)).map((e) => (isEntryLike(e) ? withoutHidden(actor, e) : e)) };
  }
  if (isEntryLike(result)) return canRead(actor, result.model) ? { result: withoutHidden(actor, result) } : 'refused';
  return { result };
}
