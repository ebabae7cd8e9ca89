import { conflict, notFound } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import { patchEntry } from './entries.js';
import { findEntryRows } from './entry-repository.js';
import type { EntryView } from './entry-view.js';
import { findVersion, listVersions, type StoredVersion, type VersionSummary } from './version-repository.js';

/** The entry's current (preview) version id; 404 when the org has no such entry. */
async function currentVersionOf(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string) {
  const rows = await findEntryRows(deps.db, orgId, id);
  if (!rows.preview) throw notFound(`Entry "${id}"`);
  return rows.preview;
}

/** An entry's kept versions, newest first; `current` marks the one its preview row holds. */
export async function entryVersions(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, page: { offset: number; limit: number }) {
  const current = await currentVersionOf(deps, orgId, id);
  const { items, total } = await listVersions(deps.db, orgId, id, page);
  return { items: items.map((v): VersionSummary & { current: boolean } => ({ ...v, current: v.versionId === current.versionId })), total };
}

export async function entryVersion(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, versionId: string): Promise<StoredVersion & { current: boolean }> {
  const current = await currentVersionOf(deps, orgId, id);
  const version = await findVersion(deps.db, orgId, id, versionId);
  if (!version) throw notFound(`Version "${versionId}" of entry "${id}"`);
  return { ...version, current: version.versionId === current.versionId };
}

/**
 * Makes a kept version the entry's draft: its fields (replacing the current ones: a field the
 * version has no value for is cleared), slug, labels, attributes and site, written as a new
 * version by the usual path — checked against the model as it is now, with its events. The
 * published version, if any, stays live until the entry is published again.
 */
export async function restoreVersion(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, versionId: string): Promise<EntryView> {
  const current = await currentVersionOf(deps, orgId, id);
  const version = await findVersion(deps.db, orgId, id, versionId);
  if (!version) throw notFound(`Version "${versionId}" of entry "${id}"`);
  if (version.model !== current.modelAlias) throw conflict(`Version "${versionId}" belongs to model "${version.model}", the entry is now a "${current.modelAlias}".`);
  const cleared = Object.fromEntries(Object.keys(current.fields).map((alias) => [alias, null]));
  // every current locale value is cleared, then the version's are set (a PATCH merges them)
  const locales: Record<string, Record<string, unknown> | null> = {};
  for (const [code, values] of Object.entries(current.locales ?? {})) locales[code] = Object.fromEntries(Object.keys(values).map((alias) => [alias, null]));
  for (const [code, values] of Object.entries(version.locales ?? {})) locales[code] = { ...locales[code], ...values };
  return patchEntry(deps, orgId, id, {
    fields: { ...cleared, ...version.fields },
    ...(Object.keys(locales).length > 0 ? { locales } : {}),
    slug: version.slug,
    labels: version.labels,
    attrs: version.attrs as Record<string, unknown> | null,
    siteId: version.siteId,
  });
}
