import type { Queryable } from '../../adapters/db/index.js';
import { normalizeFields } from '../field-values.js';
import type { FieldDefinition, ModelDefinition } from '../model-types.js';
import { findAssetShapes } from '../target-repository.js';
import { mediaRuleBreaks } from './media-rules.js';
import { matchPatterns } from './pattern-match.js';
import { ruleOf, type RuleName, type Validation } from './rules.js';
import { dropUniqueField, rebuildUniqueField } from './unique-values.js';

/** How many of a model's entries break a rule just added to (or changed on) one of its fields. */
export interface BrokenEntries {
  field: string;
  rule: RuleName;
  entries: number;
}

const PAGE = 1_000;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The rules of `f` that `old` did not have in the same form. */
function changedRules(f: FieldDefinition, old: FieldDefinition | undefined): Validation[] {
  const sameField = old && old.type === f.type && old.valueType === f.valueType && old.localized === f.localized;
  return (f.validations ?? []).filter((v) => !sameField || !old.validations?.some((o) => same(o, v)));
}

interface EntryPage {
  id: string;
  seq: number;
  fields: Record<string, unknown>;
  locales: Record<string, Record<string, unknown>> | null;
}

/** Entries of the model whose latest content breaks `rule` of `f` (a model of that one field and rule, read back). */
async function countBreaking(db: Queryable, orgId: string, model: ModelDefinition, f: FieldDefinition, rule: Validation): Promise<number> {
  const probe: ModelDefinition = { ...model, fields: [{ ...f, required: false, validations: [rule] }] };
  let broken = 0;
  for (let after = -1; ; ) {
    const { rows } = await db.query<EntryPage>(
      `SELECT id, seq, jsonb_build_object($3::text, fields->$3) AS fields, locales FROM entries
       WHERE org_id = $1 AND model_alias = $2 AND in_preview AND status <> 'DELETED' AND seq > $4 ORDER BY seq LIMIT ${PAGE}`,
      [orgId, model.alias, f.alias, after],
    );
    if (rows.length === 0) return broken;
    after = Number(rows[rows.length - 1].seq);
    const checked = rows.map((r) => {
      const values = normalizeFields(probe, r.fields[f.alias] === null ? {} : r.fields);
      const local = f.localized
        ? Object.entries(r.locales ?? {}).map(([code, v]) => normalizeFields(probe, f.alias in (v ?? {}) ? { [f.alias]: v[f.alias] } : {}, { path: `locales.${code}`, locale: true }))
        : [];
      return { fields: values.fields, bad: [values, ...local].some((n) => n.problems.length > 0), patterns: [values, ...local].flatMap((n) => n.patterns) };
    });
    const pending = checked.flatMap((c, i) => c.patterns.map((p) => ({ ...p, item: i })));
    matchPatterns(pending).forEach((outcome, k) => {
      if (outcome !== 'match') checked[pending[k].item].bad = true;
    });
    if (f.type === 'media') {
      const ids = checked.flatMap((c) => [c.fields[f.alias]].flat().filter((x): x is string => typeof x === 'string'));
      const assets = await findAssetShapes(db, orgId, [...new Set(ids)]);
      for (const c of checked) if (mediaRuleBreaks(probe, c.fields, assets).length > 0) c.bad = true;
    }
    broken += checked.filter((c) => c.bad).length;
  }
}

/**
 * Inside a model write: keeps the table behind `unique` rules in step with the new definition,
 * and counts, for each rule added or changed, the model's entries (latest content, deleted ones
 * left out) that break it. Such entries stay as they are; their next write must keep the rule.
 */
export async function applyRuleChanges(tx: Queryable, orgId: string, previous: ModelDefinition | null, next: ModelDefinition, hasEntries: boolean): Promise<BrokenEntries[]> {
  const out: BrokenEntries[] = [];
  for (const old of previous?.fields ?? []) {
    const now = next.fields.find((f) => f.alias === old.alias);
    const hadUnique = old.validations?.some((v) => ruleOf(v) === 'unique');
    // a rule that stays is rebuilt below when it changed (rebuilding starts by dropping)
    if (hadUnique && !now?.validations?.some((v) => ruleOf(v) === 'unique')) {
      await dropUniqueField(tx, orgId, next.alias, old.alias);
    }
  }
  for (const f of next.fields) {
    const old = previous?.fields.find((p) => p.alias === f.alias);
    for (const rule of changedRules(f, old)) {
      const name = ruleOf(rule);
      if (name === 'unique') {
        const entries = await rebuildUniqueField(tx, orgId, next.alias, f);
        if (hasEntries) out.push({ field: f.alias, rule: name, entries });
      } else if (hasEntries) {
        out.push({ field: f.alias, rule: name, entries: await countBreaking(tx, orgId, next, f, rule) });
      }
    }
  }
  return out;
}
