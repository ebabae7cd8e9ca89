import type { Queryable } from '../adapters/db/index.js';
import { edgesOf, type Edge } from './edges.js';
import { normalizeFields } from './field-values.js';
import { metricsOf, type EntryMetrics } from './metrics.js';
import type { ModelDefinition } from './model-types.js';
import { checkTargets, type KnownEntries } from './targets.js';

export interface PrepareItem {
  model: ModelDefinition;
  fields: unknown;
  labels: string[];
  siteId: string;
}

/** Everything stored for an entry version that derives from its field values. */
export interface PreparedContent {
  fields: Record<string, unknown>;
  edges: Edge[];
  metrics: EntryMetrics;
  title: string | null;
}

export type Prepared = { ok: PreparedContent } | { problems: string[] };

/**
 * Validates and normalizes a batch of entry writes: field values against the model, then the
 * existence of every target (one query per kind for the batch), then metrics and title.
 * `known` lists entries not yet stored that may be referenced (id → model alias).
 */
export async function prepareEntries(
  db: Queryable,
  orgId: string,
  items: PrepareItem[],
  known?: KnownEntries,
): Promise<Prepared[]> {
  const normalized = items.map((item) => {
    const n = normalizeFields(item.model, item.fields ?? {});
    return { ...n, edges: n.problems.length === 0 ? edgesOf(item.model, n.fields) : [] };
  });
  const targets = await checkTargets(
    db,
    orgId,
    items.map((item, i) => ({ model: item.model, edges: normalized[i].edges, labels: item.labels, siteId: item.siteId })),
    known,
  );
  const isImage = (id: string) => targets.assetTypes.get(id) === 'IMAGE';
  return items.map((item, i): Prepared => {
    const problems = [...normalized[i].problems, ...targets.problems[i]];
    if (problems.length > 0) return { problems };
    const fields = normalized[i].fields;
    const titleValue = item.model.titleField ? fields[item.model.titleField] : undefined;
    return {
      ok: {
        fields,
        edges: normalized[i].edges,
        metrics: metricsOf(item.model, fields, isImage),
        title: typeof titleValue === 'string' ? titleValue : null,
      },
    };
  });
}
