import { isDeepStrictEqual } from 'node:util';
import { notFound } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import { findEntryRows } from './entry-repository.js';
import { findLocales } from './locale-repository.js';
import { getModel } from './model-repository.js';
import { findVersion, type StoredVersion, type VersionSummary } from './version-repository.js';

/** One difference between two versions of an entry. */
export interface VersionChange {
  /** Where: `fields.<alias>`, `locales.<code>.<alias>`, or a property (`slug`, `labels`, `attrs`, `siteId`, `model`). */
  path: string;
  /** The field's alias; null for a property. */
  field: string | null;
  /** The locale of a localized field's value (the default locale's for `fields.*`); null otherwise. */
  locale: string | null;
  change: 'added' | 'removed' | 'changed';
  /** Absent when added. */
  before?: unknown;
  /** Absent when removed. */
  after?: unknown;
}

export interface VersionDiff {
  entryId: string;
  from: VersionSummary;
  to: VersionSummary;
  changes: VersionChange[];
}

const summary = (v: StoredVersion): VersionSummary => ({ versionId: v.versionId, status: v.status, title: v.title, savedAt: v.savedAt, savedBy: v.savedBy });
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** The change between two values of one place, or null when they are equal (null counts as absent). */
function compare(place: Omit<VersionChange, 'change' | 'before' | 'after'>, before: unknown, after: unknown): VersionChange | null {
  if (!present(before) && !present(after)) return null;
  if (!present(before)) return { ...place, change: 'added', after };
  if (!present(after)) return { ...place, change: 'removed', before };
  return isDeepStrictEqual(before, after) ? null : { ...place, change: 'changed', before, after };
}

/** Every key of both records, sorted by `rank` (the model's field order), then by name. */
const keysOf = (a: Record<string, unknown> = {}, b: Record<string, unknown> = {}, rank: (key: string) => number = () => 0) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));

/**
 * What changed from version `a` to version `b` of an entry, field by field: a field added, removed
 * or changed, with its values before and after; a localized field once per locale (the default
 * locale's values are the entry's `fields`, the others its `locales`). Fields in `hidden` (the
 * caller's role hides them) are left out. 404 for an unknown entry or version.
 */
export async function diffVersions(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  entryId: string,
  ids: { from: string; to: string },
  hidden: (model: string) => readonly string[],
): Promise<VersionDiff> {
  const rows = await findEntryRows(deps.db, orgId, entryId);
  if (!rows.preview) throw notFound(`Entry "${entryId}"`);
  const [a, b] = await Promise.all([findVersion(deps.db, orgId, entryId, ids.from), findVersion(deps.db, orgId, entryId, ids.to)]);
  if (!a) throw notFound(`Version "${ids.from}" of entry "${entryId}"`);
  if (!b) throw notFound(`Version "${ids.to}" of entry "${entryId}"`);
  const [model, locales] = await Promise.all([getModel(deps.db, orgId, b.model), findLocales(deps.db, orgId)]);
  const defaultLocale = locales.find((l) => l.default)?.code ?? null;
  const localized = new Set((model?.fields ?? []).filter((f) => f.localized).map((f) => f.alias));
  const secret = new Set([...hidden(a.model), ...hidden(b.model)]);
  // stored values come back in jsonb's key order: the model's field order reads as the editor shows it
  const order = new Map((model?.fields ?? []).map((f, i) => [f.alias, i]));
  const rank = (alias: string) => order.get(alias) ?? order.size;

  const changes: VersionChange[] = [];
  const push = (c: VersionChange | null) => c && changes.push(c);
  for (const name of ['model', 'siteId', 'slug', 'labels', 'attrs'] as const) push(compare({ path: name, field: null, locale: null }, a[name], b[name]));
  for (const alias of keysOf(a.fields, b.fields, rank)) {
    if (secret.has(alias)) continue;
    const locale = localized.has(alias) ? defaultLocale : null;
    push(compare({ path: `fields.${alias}`, field: alias, locale }, a.fields[alias], b.fields[alias]));
  }
  for (const code of keysOf(a.locales, b.locales)) {
    const before = a.locales?.[code] ?? {};
    const after = b.locales?.[code] ?? {};
    for (const alias of keysOf(before, after, rank)) {
      if (secret.has(alias)) continue;
      push(compare({ path: `locales.${code}.${alias}`, field: alias, locale: code }, before[alias], after[alias]));
    }
  }
  return { entryId, from: summary(a), to: summary(b), changes };
}
