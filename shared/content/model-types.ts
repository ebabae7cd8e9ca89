import type { Validation } from './validations/rules.js';

/**
 * The content model as stored in `models.fields` and read by schema generation, validation and
 * filter compilation. Field values live in `entries.fields` (jsonb) keyed by field alias, in the
 * stored shapes below; every writer normalizes to them and every reader relies on them.
 *
 * | type                     | stored value (single)                 | list form        |
 * |--------------------------|---------------------------------------|------------------|
 * | text, richtext, url, tag | string                                | string[] (text, tag) |
 * | number (int)             | JSON number (safe integer)            | number[]         |
 * | number (decimal)         | string holding the exact decimal      | string[]         |
 * | datetime                 | ISO-8601 UTC `YYYY-MM-DDTHH:mm:ss.sssZ` (sorts as text) | — |
 * | boolean                  | boolean                               | —                |
 * | json                     | any JSON                              | —                |
 * | location                 | {address, latitude, longitude} (strings or null) | —     |
 * | reference, media, section, author | target id (string)           | string[] of ids  |
 * | richcontent              | ProseMirror-style doc {type: 'doc', content: [...]} | — |
 * | component                | {component: alias, …its fields' values} | list of such, kinds mixed |
 *
 * Reference, media, section and author values (and the `cms_reference` / `cms_media` blocks of
 * rich content) are also written to `entry_edges` for filters and reverse relations; so are those
 * inside component values (under the component field's alias, see `edges.ts`).
 */
export const FIELD_TYPES = [
  'text',
  'number',
  'datetime',
  'boolean',
  'json',
  'location',
  'reference',
  'media',
  'richtext',
  'richcontent',
  'author',
  'tag',
  'section',
  'url',
  'component',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** Field types that have a list form in the API's mapping table. */
export const LIST_CAPABLE: ReadonlySet<FieldType> = new Set([
  'text',
  'number',
  'reference',
  'media',
  'author',
  'tag',
  'section',
  'component',
]);

/**
 * Field types that may be localized: values of their own. Relations (reference, media, section,
 * author) and rich content (whose blocks point at entries and assets) are shared by every locale,
 * so an entry's edges, filters on its relations and reverse relations stay one set. A component
 * field is localized as a whole (a value per locale, its references included in the entry's edges).
 */
export const LOCALIZABLE: ReadonlySet<FieldType> = new Set(['text', 'richtext', 'tag', 'url', 'number', 'datetime', 'boolean', 'json', 'location', 'component']);

export type ValueType = 'single' | 'list';
export type NumberFormat = 'int' | 'decimal';

export interface FieldDefinition {
  alias: string;
  type: FieldType;
  valueType: ValueType;
  /** Numbers only; default 'int'. */
  numberFormat?: NumberFormat;
  /** References only: allowed model aliases; empty = any model. */
  allowedModels: string[];
  required: boolean;
  /**
   * Holds a value per locale (stored only when true). The default locale's value is in `fields`
   * like any other field's; `required` applies to it alone.
   */
  localized?: boolean;
  /** Rules every value must keep (see `validations/rules.ts`); absent when there are none. */
  validations?: Validation[];
  /** Component fields only: the aliases of the components a value may be (at least one). */
  components?: string[];
}

/** A component as stored in `components`: a typed group of fields used by component fields. */
export interface ComponentDefinition {
  id: string;
  alias: string;
  name: string;
  fields: FieldDefinition[];
}

export interface ModelDefinition {
  id: string;
  alias: string;
  name: string;
  /** Alias of the field whose value is the entry's `system.title`. */
  titleField: string | null;
  fields: FieldDefinition[];
  /**
   * The organization's components by alias, attached when the model is read and has component
   * fields (absent otherwise): what normalizing, edges and the schema read component values with.
   * Never stored with the model nor shown in its API answer.
   */
  components?: Readonly<Record<string, ComponentDefinition>>;
  /** Template of the URL a preview link opens (see `preview-url.ts`); null when the model has none. */
  previewUrl?: string | null;
}

export const ENTRY_STATUSES = ['PUBLISHED', 'DELETED', 'DRAFT', 'UNPUBLISHED', 'ARCHIVED', 'SCHEDULED', 'EDITED'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export { ASSET_TYPES, type AssetType } from './asset-types.js';

/** `blogPost` → `BlogPost`. */
export const typeNameOf = (alias: string): string => alias.charAt(0).toUpperCase() + alias.slice(1);
