import type { Queryable } from '../adapters/db/index.js';
import type { Edge } from './edges.js';
import type { ModelDefinition } from './model-types.js';
import { findAssetShapes, findEntryModels, findExistingIds, type AssetShape } from './target-repository.js';

/** What one entry write points at: its edges, labels and site. */
export interface TargetCheckItem {
  model: ModelDefinition;
  edges: Edge[];
  labels: string[];
  siteId: string;
}

export interface TargetCheckResult {
  /** Problems per item, in input order (empty when the item is fine). */
  problems: string[][];
  /** Asset id → type for every media target found (metrics count images with it). */
  assetTypes: Map<string, string>;
  /** Asset id → type and dimensions (media rules read them). */
  assets: Map<string, AssetShape>;
}

/** Entries that may be referenced though not (yet) in the database: id → model alias. */
export type KnownEntries = Pick<ReadonlyMap<string, string>, 'has' | 'get'>;

const unique = (ids: Iterable<string>) => [...new Set(ids)];

/**
 * Checks that every target of a batch of entry writes exists in the org: referenced entries
 * (with an allowed model), assets, sections, authors, labels and the site. `known` holds entries
 * not yet in the database that may be referenced (the entry itself, earlier import lines).
 * One query per kind for the whole batch. The sections, authors and labels found stay locked
 * until `db`'s transaction ends (see findExistingIds), so none is deleted under the write.
 */
export async function checkTargets(
  db: Queryable,
  orgId: string,
  items: TargetCheckItem[],
  known: KnownEntries = new Map(),
): Promise<TargetCheckResult> {
  const want = { entries: new Set<string>(), media: new Set<string>(), section: new Set<string>(), author: new Set<string>() };
  const labels = new Set<string>();
  const sites = new Set<string>();
  for (const item of items) {
    for (const e of item.edges) {
      if (e.kind === 'reference' || e.kind === 'rich_entry') {
        if (!known.has(e.targetId)) want.entries.add(e.targetId);
      } else if (e.kind === 'media' || e.kind === 'rich_media') want.media.add(e.targetId);
      else want[e.kind].add(e.targetId);
    }
    item.labels.forEach((l) => labels.add(l));
    sites.add(item.siteId);
  }
  // One after the other: `db` is often a transaction, whose single connection cannot run
  // statements side by side.
  const entryModels = await findEntryModels(db, orgId, unique(want.entries));
  const assets = await findAssetShapes(db, orgId, unique(want.media));
  const assetTypes = new Map([...assets].map(([id, a]) => [id, a.type]));
  const sections = await findExistingIds(db, orgId, 'sections', unique(want.section), true);
  const authors = await findExistingIds(db, orgId, 'authors', unique(want.author), true);
  const labelIds = await findExistingIds(db, orgId, 'labels', unique(labels), true);
  const siteIds = await findExistingIds(db, orgId, 'sites', unique(sites));
  const problems = items.map((item) => {
    const out: string[] = [];
    if (!siteIds.has(item.siteId)) out.push(`siteId: site "${item.siteId}" not found`);
    item.labels.forEach((l, i) => {
      if (!labelIds.has(l)) out.push(`labels[${i}]: label "${l}" not found`);
    });
    const fieldDefs = new Map(item.model.fields.map((f) => [f.alias, f]));
    for (const e of item.edges) {
      const f = fieldDefs.get(e.field);
      const at = e.at ?? (f?.valueType === 'list' ? `fields.${e.field}[${e.position}]` : `fields.${e.field}`);
      const allowedModels = e.allowedModels ?? f?.allowedModels ?? [];
      switch (e.kind) {
        case 'reference':
        case 'rich_entry': {
          const model = known.get(e.targetId) ?? entryModels.get(e.targetId);
          const where = e.kind === 'rich_entry' ? `fields.${e.field} (cms_reference block ${e.position})` : at;
          if (!model) out.push(`${where}: entry "${e.targetId}" not found`);
          else if (e.kind === 'reference' && allowedModels.length > 0 && !allowedModels.includes(model)) {
            out.push(`${where}: entry "${e.targetId}" is a "${model}", not one of the allowed models (${allowedModels.join(', ')})`);
          }
          break;
        }
        case 'media':
        case 'rich_media':
          if (!assetTypes.has(e.targetId)) {
            const where = e.kind === 'rich_media' ? `fields.${e.field} (cms_media block ${e.position})` : at;
            out.push(`${where}: asset "${e.targetId}" not found`);
          }
          break;
        case 'section':
          if (!sections.has(e.targetId)) out.push(`${at}: section "${e.targetId}" not found`);
          break;
        case 'author':
          if (!authors.has(e.targetId)) out.push(`${at}: author "${e.targetId}" not found`);
          break;
      }
    }
    return out;
  });
  return { problems, assetTypes, assets };
}
