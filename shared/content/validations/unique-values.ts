import type { Queryable } from '../../adapters/db/index.js';
import type { FieldDefinition, ModelDefinition } from '../model-types.js';
import { ruleIn } from './rules.js';

/** One value an entry holds under a `unique` rule; `locale` is '' for the value in `fields`. */
interface UniqueKey {
  item: number;
  field: string;
  locale: string;
  value: string;
}

export interface UniqueItem {
  entryId: string;
  model: ModelDefinition;
  fields: Record<string, unknown>;
  locales: Record<string, Record<string, unknown>> | null;
}

const uniqueFields = (model: ModelDefinition): FieldDefinition[] => model.fields.filter((f) => ruleIn(f.validations, 'unique'));
const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

function keysOf(item: UniqueItem, at: number): UniqueKey[] {
  const out: UniqueKey[] = [];
  for (const f of uniqueFields(item.model)) {
    const v = text(item.fields[f.alias]);
    if (v !== null) out.push({ item: at, field: f.alias, locale: '', value: v });
    if (!f.localized) continue;
    for (const [code, values] of Object.entries(item.locales ?? {})) {
      const lv = text(values?.[f.alias]);
      if (lv !== null) out.push({ item: at, field: f.alias, locale: code, value: lv });
    }
  }
  return out;
}

const pathOf = (k: Pick<UniqueKey, 'field' | 'locale'>) => (k.locale === '' ? `fields.${k.field}` : `locales.${k.locale}.${k.field}`);

/**
 * Takes the values of a batch of entry writes that fall under `unique` rules, inside the writing
 * transaction and before the entries are written. The table's primary key decides: of
 * concurrent writers of one value, the insert of the first to commit stands and the others'
 * find it taken (Postgres makes a conflicting insert wait for the first to end). Returns the
 * problems per item; an item with problems keeps what it held before (its write is refused),
 * one without gives up the values it no longer has.
 */
export async function reserveUniqueValues(tx: Queryable, orgId: string, items: UniqueItem[]): Promise<string[][]> {
  const problems = items.map((): string[] => []);
  const concerned = items.flatMap((item, i) => (uniqueFields(item.model).length > 0 ? [i] : []));
  if (concerned.length === 0) return problems;
  const keys = concerned.flatMap((i) => keysOf(items[i], i));
  const arrays = [
    keys.map((k) => items[k.item].entryId),
    keys.map((k) => items[k.item].model.alias),
    keys.map((k) => k.field),
    keys.map((k) => k.locale),
    keys.map((k) => k.value),
  ];
  const wanted = 'unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS w(entry_id, model_alias, field, locale, value)';
  let taken: string[] = [];
  if (keys.length > 0) {
    const inserted = await tx.query<{ entry_id: string; model_alias: string; field: string; locale: string; value_hash: string }>(
      `INSERT INTO entry_unique_values (org_id, model_alias, field, locale, value_hash, entry_id)
       SELECT $1, w.model_alias, w.field, w.locale, md5(w.value), w.entry_id FROM ${wanted}
       ON CONFLICT DO NOTHING RETURNING entry_id, model_alias, field, locale, value_hash`,
      [orgId, ...arrays],
    );
    const holders = await tx.query<{ i: number; holder: string }>(
      `SELECT w.i::int AS i, u.entry_id AS holder
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS w(entry_id, model_alias, field, locale, value, i)
       JOIN entry_unique_values u ON u.org_id = $1 AND u.model_alias = w.model_alias AND u.field = w.field AND u.locale = w.locale AND u.value_hash = md5(w.value)
       WHERE u.entry_id <> w.entry_id`,
      [orgId, ...arrays],
    );
    for (const { i, holder } of holders.rows) {
      const k = keys[i - 1];
      problems[k.item].push(`${pathOf(k)}: unique: ${JSON.stringify(k.value.slice(0, 100))} is already used by entry "${holder}"`);
    }
    // what a refused item took just now goes back
    const refused = new Set(concerned.filter((i) => problems[i].length > 0).map((i) => items[i].entryId));
    const undo = inserted.rows.filter((r) => refused.has(r.entry_id));
    taken = [...refused];
    if (undo.length > 0) {
      await tx.query(
        `DELETE FROM entry_unique_values u USING unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS d(model_alias, field, locale, value_hash)
         WHERE u.org_id = $1 AND u.model_alias = d.model_alias AND u.field = d.field AND u.locale = d.locale AND u.value_hash = d.value_hash`,
        [orgId, undo.map((r) => r.model_alias), undo.map((r) => r.field), undo.map((r) => r.locale), undo.map((r) => r.value_hash)],
      );
    }
  }
  const kept = concerned.map((i) => items[i].entryId).filter((id) => !taken.includes(id));
  if (kept.length > 0) {
    await tx.query(
      `DELETE FROM entry_unique_values u WHERE u.org_id = $1 AND u.entry_id = ANY($7::text[])
         AND NOT EXISTS (SELECT 1 FROM ${wanted}
           WHERE w.entry_id = u.entry_id AND w.model_alias = u.model_alias AND w.field = u.field AND w.locale = u.locale AND md5(w.value) = u.value_hash)`,
      [orgId, ...arrays, kept],
    );
  }
  return problems;
}

/** A deleted entry gives up its unique values. */
export async function releaseUniqueValues(tx: Queryable, orgId: string, entryIds: string[]): Promise<void> {
  if (entryIds.length > 0) await tx.query('DELETE FROM entry_unique_values WHERE org_id = $1 AND entry_id = ANY($2::text[])', [orgId, entryIds]);
}

/** Forgets the values held under a field's `unique` rule (the rule or the field went). */
export async function dropUniqueField(tx: Queryable, orgId: string, modelAlias: string, field: string): Promise<void> {
  await tx.query('DELETE FROM entry_unique_values WHERE org_id = $1 AND model_alias = $2 AND field = $3', [orgId, modelAlias, field]);
}

/**
 * (Re)builds the values held under a field's `unique` rule from the model's entries (latest
 * content, deleted ones left out), the oldest entry first keeping a value several share.
 * Returns how many entries break the rule (share a value an older entry holds).
 */
export async function rebuildUniqueField(tx: Queryable, orgId: string, modelAlias: string, field: FieldDefinition): Promise<number> {
  await dropUniqueField(tx, orgId, modelAlias, field.alias);
  const localized = field.localized
    ? `UNION ALL SELECT e.id, e.seq, l.key, l.value->>$3 FROM entries e, jsonb_each(e.locales) l
         WHERE e.org_id = $1 AND e.model_alias = $2 AND e.in_preview AND e.status <> 'DELETED' AND jsonb_typeof(l.value) = 'object' AND l.value ? $3`
    : '';
  const { rows } = await tx.query<{ broken: number }>(
    `WITH candidates AS (
       SELECT e.id, e.seq, ''::text AS locale, e.fields->>$3 AS value FROM entries e
       WHERE e.org_id = $1 AND e.model_alias = $2 AND e.in_preview AND e.status <> 'DELETED' AND e.fields ? $3
       ${localized}
     ), ins AS (
       INSERT INTO entry_unique_values (org_id, model_alias, field, locale, value_hash, entry_id)
       SELECT DISTINCT ON (locale, md5(value)) $1, $2, $3, locale, md5(value), id FROM candidates ORDER BY locale, md5(value), seq
       RETURNING entry_id, locale, value_hash
     )
     SELECT count(DISTINCT c.id)::int AS broken FROM candidates c
     WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins.entry_id = c.id AND ins.locale = c.locale AND ins.value_hash = md5(c.value))`,
    [orgId, modelAlias, field.alias],
  );
  return rows[0].broken;
}
