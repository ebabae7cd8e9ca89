import DataLoader from 'dataloader';
import type { OrgLocales } from '../content/locale-types.js';
import type { ModelDefinition } from '../content/model-types.js';
import type { Queryable } from '../adapters/db/index.js';
import { findAssetsByIds, findCmsByIds, findImagePresets, findSectionPaths } from './cms-repository.js';
import type { AssetRow, AuthorRow, LabelRow, ListRow, SectionRow } from './cms-rows.js';
import { findEntriesByIds } from './entry-repository.js';
import { shapeCovers, shapeKey, type DeliveredEntryRow, type EntryShape } from './entry-row.js';
import type { ReadSet } from '../edge/surrogate-keys.js';
import type { DeliveryScope } from './filters/filter-env.js';

export interface OrgModels {
  list: ModelDefinition[];
  byAlias: ReadonlyMap<string, ModelDefinition>;
  /** The org's locales; null when it declares none. */
  locales: OrgLocales | null;
}

/** Per-request batching: every by-id read goes through one of these. */
export interface DeliveryLoaders {
  /** Whole entry rows. */
  entry: DataLoader<string, DeliveredEntryRow | null>;
  /**
   * Entry rows narrowed to a shape (see `entryShape`), one loader per shape; `entry` itself for
   * null (whole rows). A row primed here may carry more than the shape asks for.
   */
  entryShaped(shape: EntryShape | null): DataLoader<string, DeliveredEntryRow | null>;
  /**
   * Hands a row read in `shape` (null: whole) — or null, none visible — to every entry loader
   * whose shape it covers.
   */
  primeEntry(shape: EntryShape | null, id: string, row: DeliveredEntryRow | null): void;
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

/** A batch of rows by id, in the order asked, null where none is visible. */
const byIdBatch =
  <T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) =>
  async (ids: readonly string[]): Promise<Array<T | null>> => {
    const rows = await load(ids);
    const map = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => map.get(id) ?? null);
  };
const byId = <T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) => loader<string, T | null>(byIdBatch(load));
/** A DataLoader, counted in `loaderStats`. */
function loader<K, V>(batch: DataLoader.BatchLoadFn<K, V>): DataLoader<K, V> {
  loaderStats.made++;
  return new DataLoader<K, V>(batch);
}

/** Loaders made so far (`createLoaders` makes each on its first use), for tests. */
export const loaderStats = { made: 0 };

/**
 * The loaders of one request. Each is made on its first use: a request reads through one or two
 * of them, and one answered from the response cache through none, while making all of them was
 * about a twentieth of a cached answer's CPU (measured).
 */
export function createLoaders(db: Queryable, orgId: string, scope: DeliveryScope, reads: ReadSet): DeliveryLoaders {
  const keyedLoaders = new Map<string, DataLoader<unknown, unknown>>();
  let presets: Promise<Map<string, Record<string, unknown>>> | null = null;
  // Entry rows read or primed in this request, with the shape they were read in (null: whole):
  // a shaped read takes a row from here when one that covers its shape is known.
  const known = new Map<string, Array<{ shape: EntryShape | null; row: DeliveredEntryRow | null }>>();
  const remember = (shape: EntryShape | null, id: string, row: DeliveredEntryRow | null) => {
    const list = known.get(id);
    if (list) list.push({ shape, row });
    else known.set(id, [{ shape, row }]);
  };
  const recall = (shape: EntryShape, id: string) => known.get(id)?.find((k) => shapeCovers(k.shape, shape));
  const readEntries = (shape: EntryShape | null) => async (ids: readonly string[]) => {
    const rows = await byIdBatch((missing) => findEntriesByIds(db, orgId, scope, missing, shape))(ids);
    ids.forEach((id, i) => {
      remember(shape, id, rows[i]);
      reads.entry(id, rows[i]?.model_alias ?? null);
    });
    return rows;
  };
  let entryLoader: DataLoader<string, DeliveredEntryRow | null> | undefined;
  const entry = () => (entryLoader ??= loader(readEntries(null)));
  const keyed = <K, V>(signature: string, batch: (keys: readonly K[]) => Promise<ReadonlyArray<V>>) => {
    let loader = keyedLoaders.get(signature) as DataLoader<K, V> | undefined;
    if (!loader) {
      loaderStats.made++;
      loader = new DataLoader<K, V>(batch);
      keyedLoaders.set(signature, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  };
  let asset: DataLoader<string, AssetRow | null> | undefined;
  let section: DataLoader<string, SectionRow | null> | undefined;
  let sectionPath: DataLoader<string, SectionRow[]> | undefined;
  let author: DataLoader<string, AuthorRow | null> | undefined;
  let label: DataLoader<string, LabelRow | null> | undefined;
  let list: DataLoader<string, ListRow | null> | undefined;
  return {
    get entry() {
      return entry();
    },
    entryShaped(shape) {
      if (!shape) return entry();
      return keyed<string, DeliveredEntryRow | null>(`entry:${shapeKey(shape)}`, async (ids) => {
        const out = ids.map((id) => recall(shape, id));
        const missing = ids.filter((_, i) => !out[i]);
        const read = missing.length > 0 ? await readEntries(shape)(missing) : [];
        let next = 0;
        return out.map((k) => (k ? k.row : read[next++]));
      });
    },
    primeEntry(shape, id, row) {
      remember(shape, id, row);
      reads.entry(id, row?.model_alias ?? null);
      if (!shape) entry().prime(id, row);
    },
    get asset() {
      return (asset ??= byId((ids) => {
        for (const id of ids) reads.asset(id);
        return findAssetsByIds(db, orgId, ids);
      }));
    },
    get section() {
      return (section ??= byId((ids) => {
        reads.cmsKind('sections');
        return findCmsByIds<SectionRow>(db, 'sections', orgId, ids);
      }));
    },
    get sectionPath() {
      return (sectionPath ??= loader(async (ids: readonly string[]) => {
        reads.cmsKind('sections');
        const paths = await findSectionPaths(db, orgId, ids);
        return ids.map((id) => paths.get(id) ?? []);
      }));
    },
    get author() {
      return (author ??= byId((ids) => {
        reads.cmsKind('authors');
        return findCmsByIds<AuthorRow>(db, 'authors', orgId, ids);
      }));
    },
    get label() {
      return (label ??= byId((ids) => {
        reads.cmsKind('labels');
        return findCmsByIds<LabelRow>(db, 'labels', orgId, ids);
      }));
    },
    get list() {
      return (list ??= byId((ids) => {
        reads.cmsKind('lists');
        return findCmsByIds<ListRow>(db, 'lists', orgId, ids);
      }));
    },
    presets: () => (presets ??= findImagePresets(db, orgId).then((rows) => new Map(rows.map((r) => [r.name, r.options])))),
    keyed,
  };
}
