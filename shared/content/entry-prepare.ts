import type { Queryable } from '../adapters/db/index.js';
import { edgesOf, type Edge } from './edges.js';
import { normalizeFields } from './field-values.js';
import { findLocales } from './locale-repository.js';
import { orgLocales, type LocaleValues } from './locale-types.js';
import { normalizeLocaleValues } from './locale-values.js';
import { metricsOf, type EntryMetrics } from './metrics.js';
import type { ModelDefinition } from './model-types.js';
import { checkTargets, type KnownEntries } from './targets.js';
import { mediaRuleBreaks } from './validations/media-rules.js';
import { matchPatterns, PATTERN_VALUE_MS } from './validations/pattern-match.js';

export interface PrepareItem {
  model: ModelDefinition;
  fields: unknown;
  /** The values of localized fields in other locales, as given (see `normalizeLocaleValues`). */
  locales?: unknown;
  labels: string[];
  siteId: string;
}

/** Everything stored for an entry version that derives from its field values. */
export interface PreparedContent {
  fields: Record<string, unknown>;
  locales: LocaleValues | null;
  /** The title field's values in `locales`, one per line (see `entries.locale_titles`). */
  localeTitles: string | null;
  edges: Edge[];
  metrics: EntryMetrics;
  title: string | null;
}

export type Prepared = { ok: PreparedContent } | { problems: string[] };

/**
 * Validates and normalizes a batch of entry writes: field values against the model and its
 * rules, then the existence of every target (one query per kind for the batch) and the media
 * rules, then metrics and title. `unique` rules are left to the write (`reserveUniqueValues`).
 * `known` lists entries not yet stored that may be referenced (id → model alias).
 */
export async function prepareEntries(
  db: Queryable,
  orgId: string,
  items: PrepareItem[],
  known?: KnownEntries,
): Promise<Prepared[]> {
  // the org's locales are read only when some write carries values in them
  const locales = items.some((i) => i.locales !== undefined && i.locales !== null) ? orgLocales(await findLocales(db, orgId)) : null;
  const normalized = items.map((item) => {
    const n = normalizeFields(item.model, item.fields ?? {});
    const l = normalizeLocaleValues(item.model, locales, item.locales);
    return {
      ...n,
      locales: l.values,
      problems: [...n.problems, ...l.problems],
      patterns: [...n.patterns, ...l.patterns],
      edges: n.problems.length === 0 && l.problems.length === 0 ? edgesOf(item.model, n.fields, l.values) : [],
    };
  });
  // every pattern match of the batch runs under one time bound (see pattern-match.ts)
  const pending = normalized.flatMap((n, i) => n.patterns.map((p) => ({ ...p, item: i })));
  matchPatterns(pending).forEach((outcome, k) => {
    const p = pending[k];
    if (outcome === 'mismatch') normalized[p.item].problems.push(`${p.path}: pattern: ${p.message}`);
    else if (outcome === 'timeout') normalized[p.item].problems.push(`${p.path}: pattern: the value could not be checked within ${PATTERN_VALUE_MS} ms`);
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
    if (problems.length === 0) {
      problems.push(...mediaRuleBreaks(item.model, normalized[i].fields, targets.assets));
      // media can be localized only inside a component field's values
      for (const [code, values] of Object.entries(normalized[i].locales ?? {})) problems.push(...mediaRuleBreaks(item.model, values, targets.assets, `locales.${code}`));
    }
    if (problems.length > 0) return { problems };
    const fields = normalized[i].fields;
    const titleValue = item.model.titleField ? fields[item.model.titleField] : undefined;
    return {
      ok: {
        fields,
        locales: normalized[i].locales,
        localeTitles: localeTitlesOf(item.model, normalized[i].locales),
        edges: normalized[i].edges,
        metrics: metricsOf(item.model, fields, isImage),
        title: typeof titleValue === 'string' ? titleValue : null,
      },
    };
  });
}

function localeTitlesOf(model: ModelDefinition, locales: LocaleValues | null): string | null {
  const titles = model.titleField && locales ? Object.values(locales).flatMap((v) => (typeof v[model.titleField!] === 'string' ? [v[model.titleField!] as string] : [])) : [];
  return titles.length > 0 ? titles.join('\n') : null;
}
