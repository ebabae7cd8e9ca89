import { componentAsModel } from './field-values.js';
import type { ModelDefinition } from './model-types.js';
import { richTargets, type RichDoc } from './rich-content.js';

export type EdgeKind = 'reference' | 'media' | 'section' | 'author' | 'rich_entry' | 'rich_media';

/** One `entry_edges` row of an entry version, without the row id. */
export interface Edge {
  field: string;
  kind: EdgeKind;
  targetId: string;
  position: number;
  /** Inside a component value: where the id is (`fields.body[2].link`), said in problems; not stored. */
  at?: string;
  /** Inside a component value: the reference field's allowed models (the top-level field has none). */
  allowedModels?: string[];
}

const KIND_BY_TYPE: Partial<Record<string, EdgeKind>> = {
  reference: 'reference',
  media: 'media',
  section: 'section',
  author: 'author',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The edges inside normalized component values, under the top-level field's alias (positions
 * count on through the field's values, locales included), each with its path and allowed models.
 */
function componentEdges(model: ModelDefinition, field: string, value: unknown, path: string, edges: Edge[], count = { n: 0 }): void {
  const items = Array.isArray(value) ? value.map((v, i) => [v, `${path}[${i}]`] as const) : [[value, path] as const];
  for (const [item, at] of items) {
    if (!isObject(item) || typeof item.component !== 'string') continue;
    const inner = componentAsModel(model, item.component);
    if (!inner) continue;
    for (const f of inner.fields) {
      const v = item[f.alias];
      if (v === undefined) continue;
      const kind = KIND_BY_TYPE[f.type];
      if (kind) {
        const ids = Array.isArray(v) ? (v as string[]) : [v as string];
        ids.forEach((targetId, i) => {
          edges.push({ field, kind, targetId, position: count.n++, at: f.valueType === 'list' ? `${at}.${f.alias}[${i}]` : `${at}.${f.alias}`, allowedModels: f.allowedModels });
        });
      } else if (f.type === 'component') componentEdges(inner, field, v, `${at}.${f.alias}`, edges, count);
    }
  }
}

/**
 * The edges of normalized field values: one per id in reference, media, section and author
 * fields (position = list index, 0 for a single value), one per `cms_reference` / `cms_media`
 * block of rich content (position = order of appearance within the field), and one per id inside
 * a component field's values, in every locale given (a component is localized as a whole).
 */
export function edgesOf(model: ModelDefinition, fields: Record<string, unknown>, locales: Readonly<Record<string, Record<string, unknown>>> | null = null): Edge[] {
  const edges: Edge[] = [];
  for (const f of model.fields) {
    const value = fields[f.alias];
    if (f.type === 'component') {
      const count = { n: 0 };
      if (value !== undefined) componentEdges(model, f.alias, value, `fields.${f.alias}`, edges, count);
      if (f.localized) {
        for (const [code, values] of Object.entries(locales ?? {})) {
          if (values[f.alias] !== undefined) componentEdges(model, f.alias, values[f.alias], `locales.${code}.${f.alias}`, edges, count);
        }
      }
      continue;
    }
    if (value === undefined) continue;
    const kind = KIND_BY_TYPE[f.type];
    if (kind) {
      const ids = Array.isArray(value) ? (value as string[]) : [value as string];
      ids.forEach((targetId, position) => edges.push({ field: f.alias, kind, targetId, position }));
    } else if (f.type === 'richcontent') {
      const t = richTargets(value as RichDoc);
      t.entries.forEach((targetId, position) => edges.push({ field: f.alias, kind: 'rich_entry', targetId, position }));
      t.media.forEach((targetId, position) => edges.push({ field: f.alias, kind: 'rich_media', targetId, position }));
    }
  }
  return edges;
}
