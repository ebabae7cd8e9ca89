import type { ModelDefinition } from './model-types.js';
import { richTargets, type RichDoc } from './rich-content.js';

export type EdgeKind = 'reference' | 'media' | 'section' | 'author' | 'rich_entry' | 'rich_media';

/** One `entry_edges` row of an entry version, without the row id. */
export interface Edge {
  field: string;
  kind: EdgeKind;
  targetId: string;
  position: number;
}

const KIND_BY_TYPE: Partial<Record<string, EdgeKind>> = {
  reference: 'reference',
  media: 'media',
  section: 'section',
  author: 'author',
};

/**
 * The edges of normalized field values: one per id in reference, media, section and author
 * fields (position = list index, 0 for a single value) and one per `cms_reference` /
 * `cms_media` block of rich content (position = order of appearance within the field).
 */
export function edgesOf(model: ModelDefinition, fields: Record<string, unknown>): Edge[] {
  const edges: Edge[] = [];
  for (const f of model.fields) {
    const value = fields[f.alias];
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
