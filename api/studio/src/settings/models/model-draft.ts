import type { Field, FieldType } from '../../types';

// The model editor's working copy of a model: fields keep a stable key and the alias they were
// saved under, so a rename or a removal can be named (and warned about) before it is sent.

export const FIELD_TYPES: FieldType[] = ['text', 'number', 'datetime', 'boolean', 'json', 'location', 'reference', 'media', 'richtext', 'richcontent', 'author', 'tag', 'section', 'url', 'component'];

/** One rule of a field's validations, `{<rule>: …}` as the API takes it. */
export type Validation = Record<string, unknown>;

export interface FieldDraft {
  key: string;
  /** The alias the field has in the saved model; null for a field added here. */
  savedAlias: string | null;
  alias: string;
  type: FieldType;
  list: boolean;
  numberFormat: '' | 'int' | 'decimal';
  required: boolean;
  localized: boolean;
  allowedModels: string[];
  components: string[];
  validations: Validation[];
}

export interface ModelDraft {
  alias: string;
  name: string;
  titleField: string;
  fields: FieldDraft[];
}

let counter = 0;
const nextKey = () => `f${++counter}`;

/** The answer's field as the editor holds it. */
export function draftOf(f: Field & { validations?: Validation[]; components?: string[] }): FieldDraft {
  return {
    key: nextKey(),
    savedAlias: f.alias,
    alias: f.alias,
    type: f.type,
    list: f.valueType === 'list',
    numberFormat: f.numberFormat ?? '',
    required: f.required,
    localized: f.localized ?? false,
    allowedModels: f.allowedModels ?? [],
    components: f.components ?? [],
    validations: f.validations ?? [],
  };
}

export const blankField = (): FieldDraft => ({
  key: nextKey(),
  savedAlias: null,
  alias: '',
  type: 'text',
  list: false,
  numberFormat: '',
  required: false,
  localized: false,
  allowedModels: [],
  components: [],
  validations: [],
});

/** The field as `PUT /models/:alias` takes it: settings that do not apply are left out, so the API judges only what was chosen. */
export function fieldInput(f: FieldDraft): Record<string, unknown> {
  const input: Record<string, unknown> = { alias: f.alias.trim(), type: f.type, valueType: f.list ? 'list' : 'single', required: f.required };
  if (f.localized) input.localized = true;
  if (f.type === 'number' && f.numberFormat) input.numberFormat = f.numberFormat;
  if (f.type === 'reference') input.allowedModels = f.allowedModels;
  if (f.type === 'component') input.components = f.components;
  if (f.validations.length > 0) input.validations = f.validations;
  return input;
}

/** Saved fields a save would take away (removed, or renamed: the values stay under the old alias no more). */
export function droppedFields(saved: readonly Field[], fields: readonly FieldDraft[]): string[] {
  const kept = new Set(fields.filter((f) => f.savedAlias !== null && f.savedAlias === f.alias.trim()).map((f) => f.alias.trim()));
  return saved.map((f) => f.alias).filter((a) => !kept.has(a));
}

/** Moves the item at `from` by `by` places (the list unchanged at its ends). */
export function moved<T>(items: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  [copy[from], copy[to]] = [copy[to], copy[from]];
  return copy;
}
