import type { Queryable } from '../db/index.js';
import { conflict, notFound, unprocessable } from '../errors/index.js';
import { newId, newVersionId } from '../ids.js';
import type { ContentDeps } from './deps.js';
import type { EntryInput, EntryPatch } from './entry-input.js';
import { prepareEntries, type PreparedContent } from './entry-prepare.js';
import { findEntryRows, insertEdges, insertEntryRows, lockEntryKey } from './entry-store.js';
import { publish, writeContent, type EntryRows } from './entry-transitions.js';
import { entryView, type EntryView } from './entry-view.js';
import type { NewEntryRow } from './entry-row.js';
import { getModel, type StoredModel } from './model-store.js';
import { bumpContentVersion } from './org-versions.js';
import { isProblem, normalizeDateTime } from './scalars.js';

const invalid = (problems: string[]) => unprocessable('The entry is invalid.', problems);

function dateOf(name: string, value: string | undefined, problems: string[]): Date | undefined {
  if (value === undefined) return undefined;
  const d = normalizeDateTime(value);
  if (isProblem(d)) {
    problems.push(`${name}: ${d.problem}`);
    return undefined;
  }
  return new Date(d);
}

async function requireEntryModel(db: Queryable, orgId: string, alias: string): Promise<StoredModel> {
  const model = await getModel(db, orgId, alias, { lock: 'share' });
  if (!model) throw invalid([`model: model "${alias}" not found`]);
  return model;
}

async function prepareOne(tx: Queryable, orgId: string, model: StoredModel, id: string, fields: unknown, labels: string[], siteId: string): Promise<PreparedContent> {
  // The entry may reference itself.
  const [prepared] = await prepareEntries(tx, orgId, [{ model, fields, labels, siteId }], new Map([[id, model.alias]]));
  if ('problems' in prepared) throw invalid(prepared.problems);
  return prepared.ok;
}

/** The new row of an entry created by `input` (shared with bulk import). */
export function newEntryRow(
  id: string,
  model: StoredModel,
  input: EntryInput,
  content: Omit<PreparedContent, 'edges'>,
  dates: { now: Date; createdAt?: Date; publishedAt?: Date; firstPublishedAt?: Date },
): NewEntryRow {
  const published = input.status === 'PUBLISHED';
  const publishedAt = published ? (dates.publishedAt ?? dates.now) : null;
  return {
    id,
    inPreview: true,
    inDelivery: published,
    modelAlias: model.alias,
    modelId: model.id,
    siteId: input.siteId,
    status: input.status ?? 'DRAFT',
    title: content.title,
    slug: input.slug ?? null,
    externalId: input.externalId ?? null,
    clonedFrom: null,
    versionId: newVersionId(),
    labels: input.labels ?? [],
    attrs: input.attrs ?? null,
    fields: content.fields,
    metrics: content.metrics,
    publishedAt,
    firstPublishedAt: published ? (dates.firstPublishedAt ?? publishedAt) : null,
    unpublishedAt: null,
    scheduledAt: null,
    createdAt: dates.createdAt ?? dates.now,
    updatedAt: dates.now,
  };
}

/** Dates of a create call; problems are collected, not thrown. */
export function inputDates(input: EntryInput, problems: string[]) {
  const createdAt = dateOf('createdAt', input.createdAt, problems);
  const publishedAt = dateOf('publishedAt', input.publishedAt, problems);
  const firstPublishedAt = dateOf('firstPublishedAt', input.firstPublishedAt, problems);
  if ((publishedAt || firstPublishedAt) && input.status !== 'PUBLISHED') {
    problems.push('publishedAt: allowed only with status PUBLISHED');
  }
  return { createdAt, publishedAt, firstPublishedAt };
}

async function insertNew(tx: Queryable, orgId: string, id: string, model: StoredModel, input: EntryInput, now: Date): Promise<EntryRows> {
  const problems: string[] = [];
  const dates = inputDates(input, problems);
  if (problems.length > 0) throw invalid(problems);
  const content = await prepareOne(tx, orgId, model, id, input.fields, input.labels ?? [], input.siteId);
  const row = newEntryRow(id, model, input, content, { now, ...dates });
  const rowId = (await insertEntryRows(tx, orgId, [row])).get(id)!;
  await insertEdges(tx, orgId, content.edges.map((e) => ({ ...e, rowId, sourceId: id })));
  const stored = { ...row, rowId };
  return { preview: stored, delivery: row.inDelivery ? stored : null };
}

/** `POST /entries`: a new entry with a service-generated id. */
export async function createEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, input: EntryInput): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const model = await requireEntryModel(tx, orgId, input.model);
    const out = await insertNew(tx, orgId, newId(), model, input, new Date());
    await bumpContentVersion(tx, orgId);
    return out;
  });
  return entryView(rows.preview, rows.delivery);
}

/** `PUT /entries/:id`: creates the entry with the client's id, or replaces its content. */
export async function putEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, input: EntryInput): Promise<{ entry: EntryView; created: boolean }> {
  const { rows, created } = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const model = await requireEntryModel(tx, orgId, input.model);
    await lockEntryKey(tx, orgId, id);
    const existing = await findEntryRows(tx, orgId, id, { forUpdate: true });
    if (!existing.preview) return { rows: await insertNew(tx, orgId, id, model, input, now), created: true };
    const current: EntryRows = { preview: existing.preview, delivery: existing.delivery };
    if (current.preview.status === 'DELETED') throw conflict(`Entry "${id}" is deleted.`);
    if (current.preview.modelAlias !== model.alias) throw invalid([`model: entry "${id}" is a "${current.preview.modelAlias}"; its model cannot change`]);
    if (input.status !== undefined && input.status !== 'PUBLISHED' && input.status !== current.preview.status) {
      throw invalid([`status: an existing entry changes status through /publish, /unpublish, /archive, /schedule or DELETE`]);
    }
    const content = await prepareOne(tx, orgId, model, id, input.fields, input.labels ?? [], input.siteId);
    let next = await writeContent(tx, orgId, current, {
      ...content,
      siteId: input.siteId,
      slug: input.slug ?? null,
      externalId: input.externalId ?? null,
      labels: input.labels ?? [],
      attrs: input.attrs ?? null,
    }, now);
    if (input.status === 'PUBLISHED') next = await publish(tx, next, now);
    await bumpContentVersion(tx, orgId);
    return { rows: next, created: false };
  });
  return { entry: entryView(rows.preview, rows.delivery), created };
}

/** `PATCH /entries/:id`: merges `fields` by alias (null clears one); other given members replace. */
export async function patchEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string, patch: EntryPatch): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const current = await lockEntry(tx, orgId, id);
    if (current.preview.status === 'DELETED') throw conflict(`Entry "${id}" is deleted.`);
    const p = current.preview;
    const model = await requireEntryModel(tx, orgId, p.modelAlias);
    // Values of fields the model no longer has are dropped rather than refused as unknown.
    const kept = Object.fromEntries(Object.entries(p.fields).filter(([alias]) => model.fields.some((f) => f.alias === alias)));
    const fields = { ...kept, ...(patch.fields ?? {}) };
    const labels = patch.labels ?? p.labels;
    const siteId = patch.siteId ?? p.siteId;
    const content = await prepareOne(tx, orgId, model, id, fields, labels, siteId);
    const next = await writeContent(tx, orgId, current, {
      ...content,
      siteId,
      labels,
      slug: patch.slug !== undefined ? patch.slug : p.slug,
      externalId: patch.externalId !== undefined ? patch.externalId : p.externalId,
      attrs: patch.attrs !== undefined ? patch.attrs : p.attrs,
    }, new Date());
    await bumpContentVersion(tx, orgId);
    return next;
  });
  return entryView(rows.preview, rows.delivery);
}

/** The entry's rows, locked for the transaction; 404 when the org has no such entry. */
export async function lockEntry(tx: Queryable, orgId: string, id: string): Promise<EntryRows> {
  await lockEntryKey(tx, orgId, id);
  const rows = await findEntryRows(tx, orgId, id, { forUpdate: true });
  if (!rows.preview) throw notFound(`Entry "${id}"`);
  return { preview: rows.preview, delivery: rows.delivery };
}

export async function getEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string): Promise<EntryView> {
  const rows = await findEntryRows(deps.db, orgId, id);
  if (!rows.preview) throw notFound(`Entry "${id}"`);
  return entryView(rows.preview, rows.delivery);
}
