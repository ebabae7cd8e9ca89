import { isAppError } from '../../errors/index.js';
import { newId } from '../../ids.js';
import type { ContentDeps } from '../deps.js';
import { inputDates, newEntryRow, putEntries, putEntry, type PutOutcome } from '../entries.js';
import { clientIdSchema, entryInputSchema, type EntryInput } from '../entry-input.js';
import { prepareEntries } from '../entry-prepare.js';
import type { NewEntryRow } from '../entry-row.js';
import { findExistingEntryIds, insertEdges, insertEntryRows, type EdgeRow } from '../entry-repository.js';
import { getModel, type StoredModel } from '../model-repository.js';
import { findExistingIds } from '../target-repository.js';
import type { Queryable } from '../../adapters/db/index.js';
import { bumpContentVersion } from '../org-versions.js';
import { recordImportedEntries } from '../../events/record-events.js';
import { describeIssues, modelOf } from './line-helpers.js';
import { reserveUniqueValues } from '../validations/unique-values.js';
import type { ImportState, LineResult } from './types.js';

export const entryLineSchema = entryInputSchema.extend({ id: clientIdSchema.optional() });

export interface EntryLine {
  line: number;
  body: unknown;
}

interface Candidate {
  line: number;
  id: string;
  /** The line named its id (it may already exist); otherwise the id was generated. */
  clientId: boolean;
  input: EntryInput;
  model: StoredModel;
  dates: ReturnType<typeof inputDates>;
}

const failed = (line: number, errors: string[]): LineResult => ({ line, type: 'entry', ok: false, errors });

/** A validated batch, ready to write. */
export interface PreparedBatch {
  lines: number[];
  results: Map<number, LineResult>;
  fresh: { c: Candidate; row: NewEntryRow; edges: Omit<EdgeRow, 'rowId'>[] }[];
  /** Entries that exist already (or were written by an earlier line): replaced with `putEntries`. */
  replacing: Candidate[];
}

/**
 * Validates a run of consecutive entry lines: shape, model, dates, field values and every
 * target, with one query per kind for the whole batch. The new entries it accepts are added to
 * `state.entries` at once, so the next batch can be validated while this one is written.
 */
export async function prepareEntryBatch(deps: ContentDeps, state: ImportState, batch: EntryLine[]): Promise<PreparedBatch> {
  const results = new Map<number, LineResult>();
  const candidates: Candidate[] = [];
  for (const { line, body } of batch) {
    const parsed = entryLineSchema.safeParse(body);
    if (!parsed.success) {
      results.set(line, failed(line, describeIssues(parsed.error)));
      continue;
    }
    const { id, ...input } = parsed.data;
    const model = await modelOf(deps, state, input.model);
    if (!model) {
      results.set(line, failed(line, [`model: model "${input.model}" not found`]));
      continue;
    }
    const problems: string[] = [];
    const dates = inputDates(input, problems);
    if (problems.length > 0) results.set(line, failed(line, problems));
    else candidates.push({ line, id: id ?? newId(), clientId: id !== undefined, input, model, dates });
  }
  const clientIds = candidates.filter((c) => c.clientId && !state.entries.has(c.id)).map((c) => c.id);
  const existing = await findExistingEntryIds(deps.db, state.orgId, clientIds);
  const isOld = (c: Candidate) => existing.has(c.id) || state.entries.has(c.id);
  const replacing = candidates.filter(isOld);
  const fresh = await prepareFresh(deps, state, candidates.filter((c) => !isOld(c)), results);
  for (const f of fresh) state.entries.set(f.c.id, f.c.model.alias);
  return { lines: batch.map((b) => b.line), results, fresh, replacing };
}

/** Forgets the optimistic ids of a prepared batch (it is about to be validated again). */
export function discardPrepared(state: ImportState, prepared: PreparedBatch): void {
  for (const f of prepared.fresh) state.entries.delete(f.c.id);
}

/**
 * Writes a prepared batch: every new entry in ONE transaction (multi-row inserts of entries and
 * edges), then every replacement in another (`putEntries`). A batch the database refuses is retried line by
 * line, so one bad line never takes good ones down with it. `dirty` tells the caller that an
 * entry accepted at validation failed here (later batches must be validated again).
 */
export async function writeEntryBatch(deps: ContentDeps, state: ImportState, prepared: PreparedBatch): Promise<{ results: LineResult[]; dirty: boolean }> {
  const { results, fresh } = prepared;
  let dirty = false;
  if (fresh.length > 0) {
    try {
      await deps.db.transaction(async (tx) => {
        await lockWhatTheBatchUses(tx, state.orgId, fresh);
        // a value under a unique rule taken by another entry (or line): each line then says whose
        const taken = await reserveUniqueValues(tx, state.orgId, fresh.map((g) => ({ entryId: g.c.id, model: g.c.model, fields: g.row.fields, locales: g.row.locales })));
        if (taken.some((p) => p.length > 0)) throw new ChangedSinceValidation('unique values');
        const inserted = await insertEntryRows(tx, state.orgId, fresh.map((g) => g.row));
        await insertEdges(tx, state.orgId, fresh.flatMap((g) => g.edges.map((e) => ({ ...e, rowId: inserted.get(e.sourceId)!.rowId }))));
        await recordImportedEntries(tx, state.orgId, newId(), fresh.map((g) => ({ event: 'created', rowId: inserted.get(g.c.id)!.rowId })));
        await bumpContentVersion(tx, state.orgId);
      });
      for (const g of fresh) results.set(g.c.line, { line: g.c.line, type: 'entry', ok: true, id: g.c.id });
    } catch {
      // The database refused the batch (e.g. a concurrent writer took an id), or something it was
      // validated against changed meanwhile: isolate the bad line.
      // The ids stay known meanwhile: the next batch is being validated against them right now.
      for (const g of fresh) {
        const r = await applyOne(deps, state, g.c);
        if (!r.ok) {
          state.entries.delete(g.c.id);
          dirty = true;
        }
        results.set(g.c.line, r);
      }
    }
  }
  if (prepared.replacing.length > 0) {
    const replaced = await putEntries(deps, state.orgId, prepared.replacing.map((c) => ({ id: c.id, input: c.input })), { imported: true }).catch(() => null);
    for (const [i, c] of prepared.replacing.entries()) {
      // The database refused the batch (e.g. a deadlock with another writer): line by line.
      const outcome = replaced?.[i];
      results.set(c.line, outcome ? lineResult(state, c, outcome) : await applyOne(deps, state, c));
    }
  }
  return { results: prepared.lines.map((l) => results.get(l)!), dirty };
}

/** What a batch's writes found changed since they were validated outside their transaction. */
class ChangedSinceValidation extends Error {}

/**
 * New entries are validated while the previous batch is written, outside the transaction that
 * writes them. Inside it, this locks what they were validated against — their models (FOR SHARE:
 * no change or delete until the batch commits) and the sections, authors and labels they use
 * (FOR KEY SHARE: a delete, which locks first and then checks for users, waits and then sees the
 * batch) — and throws when any of it changed or went away meanwhile, so the batch falls back to
 * line-by-line writes that validate inside their own transactions.
 */
async function lockWhatTheBatchUses(tx: Queryable, orgId: string, fresh: PreparedBatch['fresh']): Promise<void> {
  const models = new Map(fresh.map((g) => [g.c.model.alias, g.c.model]));
  for (const [alias, validated] of [...models].sort(([a], [b]) => a.localeCompare(b))) {
    const now = await getModel(tx, orgId, alias, { lock: 'share' });
    if (!now || now.updatedAt.getTime() !== validated.updatedAt.getTime()) throw new ChangedSinceValidation(`model "${alias}"`);
  }
  const used = { sections: new Set<string>(), authors: new Set<string>(), labels: new Set<string>() };
  for (const g of fresh) {
    for (const e of g.edges) if (e.kind === 'section' || e.kind === 'author') used[e.kind === 'section' ? 'sections' : 'authors'].add(e.targetId);
    for (const l of g.c.input.labels ?? []) used.labels.add(l);
  }
  for (const table of ['sections', 'authors', 'labels'] as const) {
    const ids = [...used[table]];
    if ((await findExistingIds(tx, orgId, table, ids, true)).size !== ids.length) throw new ChangedSinceValidation(table);
  }
}

/** Validates the new entries of a batch; failures go to `results`, the rest come back as rows. */
async function prepareFresh(deps: ContentDeps, state: ImportState, fresh: Candidate[], results: Map<number, LineResult>): Promise<PreparedBatch['fresh']> {
  if (fresh.length === 0) return [];
  // References may point at entries of earlier lines: earlier batches (state) or this one.
  const lineOf = new Map(fresh.map((c) => [c.id, c]));
  const known = {
    has: (id: string) => state.entries.has(id) || lineOf.has(id),
    get: (id: string) => state.entries.get(id) ?? lineOf.get(id)?.model.alias,
  };
  const prepared = await prepareEntries(
    deps.db,
    state.orgId,
    fresh.map((c) => ({ model: c.model, fields: c.input.fields, locales: c.input.locales, labels: c.input.labels ?? [], siteId: c.input.siteId })),
    known,
  );
  // A line may only reference entries of EARLIER lines that succeeded; failures cascade.
  const bad = new Map<string, string[]>();
  fresh.forEach((c, i) => {
    const p = prepared[i];
    if ('problems' in p) bad.set(c.id, p.problems);
  });
  for (let changed = true; changed; ) {
    changed = false;
    fresh.forEach((c, i) => {
      const p = prepared[i];
      if (bad.has(c.id) || 'problems' in p) return;
      for (const e of p.ok.edges) {
        if (e.kind !== 'reference' && e.kind !== 'rich_entry') continue;
        const target = lineOf.get(e.targetId);
        if (!target || target.id === c.id || state.entries.has(e.targetId)) continue;
        if (target.line > c.line || bad.has(target.id)) {
          bad.set(c.id, [`${e.at ?? `fields.${e.field}`}: entry "${e.targetId}" not found (line ${target.line} ${target.line > c.line ? 'comes later' : 'failed'})`]);
          changed = true;
          return;
        }
      }
    });
  }
  const now = new Date();
  const good: PreparedBatch['fresh'] = [];
  fresh.forEach((c, i) => {
    const p = prepared[i];
    if (bad.has(c.id) || 'problems' in p) {
      results.set(c.line, failed(c.line, bad.get(c.id)!));
      return;
    }
    const row = newEntryRow(c.id, c.model, c.input, p.ok, { now, ...c.dates });
    good.push({ c, row, edges: p.ok.edges.map((e) => ({ ...e, sourceId: c.id })) });
  });
  return good;
}

/** The regular single-entry path (create with the id, or replace). */
async function applyOne(deps: ContentDeps, state: ImportState, c: Candidate): Promise<LineResult> {
  try {
    return lineResult(state, c, await putEntry(deps, state.orgId, c.id, c.input));
  } catch (err) {
    if (isAppError(err)) return lineResult(state, c, { error: err });
    // A database failure of this one line (no SQL in the report): the line is not written.
    return failed(c.line, ['line: the database refused this line; it was not written']);
  }
}

function lineResult(state: ImportState, c: Candidate, outcome: PutOutcome): LineResult {
  if ('error' in outcome) return failed(c.line, outcome.error.reasons);
  state.entries.set(outcome.entry.id, outcome.entry.model);
  return { line: c.line, type: 'entry', ok: true, id: outcome.entry.id };
}
