import DataLoader from 'dataloader';
import type { ModelDefinition } from '../content/model-types.js';
import type { Queryable } from '../db/index.js';
import { findAssetsByIds, findCmsByIds, findImagePresets, findSectionPaths } from './cms-repository.js';
import type { AssetRow, AuthorRow, LabelRow, ListRow, SectionRow } from './cms-rows.js';
import { findEntriesByIds } from './entry-repository.js';
import type { EntryRow } from './entry-row.js';
import type { DeliveryScope } from './filters/filter-env.js';

export interface OrgModels {
  list: ModelDefinition[];
  byAlias: ReadonlyMap<string, ModelDefinition>;
}

/** Per-request batching (DESIGN §4): every by-id read goes through one of these. */
export interface DeliveryLoaders {
  entry: DataLoader<string, EntryRow | null>;
  asset: DataLoader<string, AssetRow | null>;
  section: DataLoader<string, SectionRow | null>;
  sectionPath: DataLoader<string, SectionRow[]>;
  author: DataLoader<string, AuthorRow | null>;
  label: DataLoader<string, LabelRow | null>;
  list: DataLoader<string, ListRow | null>;
  presets: () => Promise<Map<string, Record<string, unknown>>>;
  /**
   * A loader for one kind of child collection with one set of arguments, keyed by parent: the
   * collections of all parents on a page load in one batch.
   */
  keyed<K, V>(signature: string, batch: (keys: readonly K[]) => Promise<ReadonlyArray<V>>): DataLoader<K, V>;
}

const byId = <T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) =>
  new DataLoader<string, T | null>(async (ids) => {
    const rows = await load(ids);
    const map = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => map.get(id) ?? null);
  });

export function createLoaders(db: Queryable, orgId: string, scope: DeliveryScope): DeliveryLoaders {
  const keyedLoaders = new Map<string, DataLoader<unknown, unknown>>();
  let presets: Promise<Map<string, Record<string, unknown>>> | null = null;
  return {
    entry: byId((ids) => findEntriesByIds(db, orgId, scope, ids)),
    asset: byId((ids) => findAssetsByIds(db, orgId, ids)),
    section: byId((ids) => findCmsByIds<SectionRow>(db, 'sections', orgId, ids)),
    sectionPath: new DataLoader(async (ids) => {
      const paths = await findSectionPaths(db, orgId, ids);
      return ids.map((id) => paths.get(id) ?? []);
    }),
    author: byId((ids) => findCmsByIds<AuthorRow>(db, 'authors', orgId, ids)),
    label: byId((ids) => findCmsByIds<LabelRow>(db, 'labels', orgId, ids)),
    list: byId((ids) => findCmsByIds<ListRow>(db, 'lists', orgId, ids)),
    presets: () => (presets ??= findImagePresets(db, orgId).then((rows) => new Map(rows.map((r) => [r.name, r.options])))),
    keyed<K, V>(signature: string, batch: (keys: readonly K[]) => Promise<ReadonlyArray<V>>) {
      let loader = keyedLoaders.get(signature) as DataLoader<K, V> | undefined;
      if (!loader) {
        loader = new DataLoader<K, V>(batch);
        keyedLoaders.set(signature, loader as DataLoader<unknown, unknown>);
      }
      return loader;
    },
  };
}
