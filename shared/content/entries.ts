import type { Queryable } from '../adapters/db/index.js';
import { badRequest, conflict, isAppError, notFound, unprocessable, type AppError } from '../errors/index.js';
import { newId, newVersionId } from '../ids.js';
import type { ContentDeps } from './deps.js';
import type { EntryInput, EntryPatch, EntrySort } from './entry-input.js';
import { prepareEntries, type PrepareItem, type PreparedContent } from './entry-prepare.js';
import { mergeLocaleValues } from './locale-values.js';
import { findLocales } from './locale-repository.js';
import { orgLocales, readInLocale, unknownLocaleMessage } from './locale-types.js';
import { findEntryRows, findEntryRowsOf, insertEdges, insertEntryRows, listEntryRows, lockEntryKeys, type EntryListFilter } from './entry-repository.js';
import { applyContentPlans, planContent, writeContent, type ContentChange, type ContentPlan, type EntryRows } from './entry-transitions.js';
import { entryView, type EntryView } from './entry-view.js';
import type { EntryRow, NewEntryRow } from './entry-row.js';
import { getModel, listModels, type StoredModel } from './model-repository.js';
import { bumpContentVersion } from './org-versions.js';
import { contentEvents } from './entry-events.js';
import { recordEntryEvents, recordImportedEntries } from '../events/record-events.js';
import { isProblem, normalizeDateTime } from './scalars.js';
import { reserveUniqueValues } from './validations/unique-values.js';
import { entrySearch } from './search-words.js';

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

async function prepareOne(tx: Queryable, orgId: string, model: StoredModel, id: string, item: Omit<PrepareItem, 'model'>): Promise<PreparedContent> {
  // The entry may reference itself.
  const [prepared] = await prepareEntries(tx, orgId, [{ model, ...item }], new Map([[id, model.alias]]));
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
  // an archived entry may have been published before (an export carries when)
  const archived = input.status === 'ARCHIVED';
  const publishedAt = published ? (dates.publishedAt ?? dates.now) : archived ? (dates.publishedAt ?? null) : null;
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
    locales: content.locales,
    localeTitles: content.localeTitles,
    metrics: content.metrics,
    publishedAt,
    firstPublishedAt: published || archived ? (dates.firstPublishedAt ?? publishedAt) : null,
    unpublishedAt: null,
    scheduledAt: null,
    unpublishAt: null,
    createdAt: dates.createdAt ?? dates.now,
    updatedAt: dates.now,
  };
}

/** Dates of a create call; problems are collected, not thrown. */
export function inputDates(input: EntryInput, problems: string[]) {
  const createdAt = dateOf('createdAt', input.createdAt, problems);
  const publishedAt = dateOf('publishedAt', input.publishedAt, problems);
  const firstPublishedAt = dateOf('firstPublishedAt', input.firstPublishedAt, problems);
  if ((publishedAt || firstPublishedAt) && input.status !== 'PUBLISHED' && input.status !== 'ARCHIVED') {
    problems.push('publishedAt: allowed only with status PUBLISHED or ARCHIVED');
  }
  return { createdAt, publishedAt, firstPublishedAt };
}

async function insertNew(tx: Queryable, orgId: string, id: string, model: StoredModel, input: EntryInput, now: Date): Promise<EntryRows> {
  const problems: string[] = [];
  const dates = inputDates(input, problems);
  if (problems.length > 0) throw invalid(problems);
  const content = await prepareOne(tx, orgId, model, id, { fields: input.fields, locales: input.locales, labels: input.labels ?? [], siteId: input.siteId });
  const [taken] = await reserveUniqueValues(tx, orgId, [{ entryId: id, model, fields: content.fields, locales: content.locales }]);
  if (taken.length > 0) throw invalid(taken);
  const row = newEntryRow(id, model, input, content, { now, ...dates });
  const { rowId, seq } = (await insertEntryRows(tx, orgId, [row])).get(id)!;
  await insertEdges(tx, orgId, content.edges.map((e) => ({ ...e, rowId, sourceId: id })));
  const stored = { ...row, rowId, seq };
  return { preview: stored, delivery: row.inDelivery ? stored : null };
}

/** `POST /entries`: a new entry with a service-generated id. */
export async function createEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, input: EntryInput): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const model = await requireEntryModel(tx, orgId, input.model);
    const out = await insertNew(tx, orgId, newId(), model, input, new Date());
    await recordEntryEvents(tx, orgId, contentEvents(true, out.preview));
    await bumpContentVersion(tx, orgId);
    return out;
  });
  return entryView(rows.preview, rows.delivery);
}

/** `PUT /entries/:id`: creates the entry with the client's id, or replaces its content. */
export async function putEntry(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  id: string,
  input: EntryInput,
  options: { expectedVersionId?: string } = {},
): Promise<Written> {
  const [outcome] = await putEntries(deps, orgId, [{ id, input, expectedVersionId: options.expectedVersionId }]);
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

/** A written entry, with the id of its preview row (for the events of the write). */
export type Written = { entry: EntryView; created: boolean; rowId: number };
export type PutOutcome = Written | { error: AppError };

/**
 * `putEntry` for many entries (distinct ids) in ONE transaction: the entries are locked, read,
 * checked and rewritten together, a few statements for the whole batch (an import run again
 * replaces every entry it names). An entry that breaks a rule gets its error and is not written;
 * the others are. A database failure rolls the whole batch back (the caller may retry one by one).
 */
export async function putEntries(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  items: { id: string; input: EntryInput; expectedVersionId?: string }[],
  options: { imported?: boolean } = {},
): Promise<PutOutcome[]> {
  return deps.db.transaction(async (tx) => {
    const now = new Date();
    const models = new Map<string, StoredModel | null>();
    for (const alias of [...new Set(items.map((i) => i.input.model))].sort()) models.set(alias, await getModel(tx, orgId, alias, { lock: 'share' }));
    await lockEntryKeys(tx, orgId, items.map((i) => i.id));
    const existing = await findEntryRowsOf(tx, orgId, items.map((i) => i.id), { forUpdate: true });
    const outcomes: (PutOutcome | undefined)[] = [];
    const replacing: { at: number; rows: EntryRows; model: StoredModel; input: EntryInput }[] = [];
    for (const [at, { id, input, expectedVersionId }] of items.entries()) {
      const model = models.get(input.model);
      const current = existing.get(id);
      const stale = expectedVersionId === undefined ? null : versionConflict(id, current?.preview ?? null, expectedVersionId);
      if (stale) outcomes[at] = { error: stale };
      else if (!model) outcomes[at] = { error: invalid([`model: model "${input.model}" not found`]) };
      else if (!current?.preview) outcomes[at] = await created(() => insertNew(tx, orgId, id, model, input, now));
      else {
        const rows = { preview: current.preview, delivery: current.delivery };
        const refused = replacementRefused(rows.preview, model, input);
        if (refused) outcomes[at] = { error: refused };
        else replacing.push({ at, rows, model, input });
      }
    }
    // An entry may reference itself or another entry of the batch (all of them exist).
    const known = new Map(replacing.map((r) => [r.rows.preview.id, r.model.alias]));
    const prepared = await prepareEntries(tx, orgId, replacing.map((r) => ({ model: r.model, fields: r.input.fields, locales: r.input.locales, labels: r.input.labels ?? [], siteId: r.input.siteId })), known);
    const plans: { at: number; plan: ContentPlan }[] = [];
    const valid = replacing.flatMap((r, i) => {
      const p = prepared[i];
      return 'ok' in p ? [{ entryId: r.rows.preview.id, model: r.model, fields: p.ok.fields, locales: p.ok.locales }] : [];
    });
    const taken = await reserveUniqueValues(tx, orgId, valid);
    const takenOf = new Map(valid.map((v, i) => [v.entryId, taken[i]]));
    replacing.forEach((r, i) => {
      const p = prepared[i];
      const unique = takenOf.get(r.rows.preview.id) ?? [];
      if ('problems' in p) outcomes[r.at] = { error: invalid(p.problems) };
      else if (unique.length > 0) outcomes[r.at] = { error: invalid(unique) };
      else {
        // a replacement that publishes takes the given publication time, as a creation does (an export's lines carry it)
        const problems: string[] = [];
        const publishAt = r.input.status === 'PUBLISHED' ? (inputDates(r.input, problems).publishedAt ?? now) : undefined;
        if (problems.length > 0) outcomes[r.at] = { error: invalid(problems) };
        else plans.push({ at: r.at, plan: planContent(r.rows, contentChange(p.ok, r.input), now, publishAt) });
      }
    });
    const written = await applyContentPlans(tx, orgId, plans.map((p) => p.plan));
    plans.forEach((p, i) => (outcomes[p.at] = { entry: entryView(written[i].preview, written[i].delivery), created: false, rowId: written[i].preview.rowId }));
    const done = outcomes.filter((o): o is Written => o !== undefined && !('error' in o));
    if (options.imported) await recordImportedEntries(tx, orgId, newId(), done.map((o) => ({ event: o.created ? 'created' : 'saved', rowId: o.rowId })));
    else await recordEntryEvents(tx, orgId, done.flatMap((o) => contentEvents(o.created, { status: o.entry.status, rowId: o.rowId })));
    if (done.length > 0) await bumpContentVersion(tx, orgId);
    return outcomes.map((o) => o!);
  });
}

/** Why an existing entry may not be replaced by `input`, if it may not. */
function replacementRefused(current: EntryRow, model: StoredModel, input: EntryInput): AppError | null {
  if (current.status === 'DELETED') return conflict(`Entry "${current.id}" is deleted.`);
  if (current.modelAlias !== model.alias) return invalid([`model: entry "${current.id}" is a "${current.modelAlias}"; its model cannot change`]);
  if (input.status !== undefined && input.status !== 'PUBLISHED' && input.status !== current.status) {
    return invalid([`status: an existing entry changes status through /publish, /unpublish, /archive, /schedule or DELETE`]);
  }
  return null;
}

const contentChange = (content: PreparedContent, input: EntryInput): ContentChange => ({
  ...content,
  siteId: input.siteId,
  slug: input.slug ?? null,
  externalId: input.externalId ?? null,
  labels: input.labels ?? [],
  attrs: input.attrs ?? null,
});

/** A created entry, or the rule it broke (validation runs before any write, so the batch goes on). */
async function created(insert: () => Promise<EntryRows>): Promise<PutOutcome> {
  try {
    const rows = await insert();
    return { entry: entryView(rows.preview, rows.delivery), created: true, rowId: rows.preview.rowId };
  } catch (err) {
    if (isAppError(err)) return { error: err };
    throw err;
  }
}

/**
 * A write that names the version it was made on (`If-Match`) is refused when the entry has moved
 * on since: someone else's newer change is never silently overwritten.
 */
export function checkVersion(current: EntryRow, expectedVersionId: string | undefined): void {
  if (expectedVersionId === undefined) return;
  const stale = versionConflict(current.id, current, expectedVersionId);
  if (stale) throw stale;
}

/** The 409 for a write made on `expected` when the entry is now `current` (null: it has no version yet). */
function versionConflict(id: string, current: EntryRow | null, expected: string): AppError | null {
  if (current?.versionId === expected) return null;
  return conflict(
    current
      ? `Entry "${id}" has changed since version ${expected} (VERSION_CONFLICT): its current version is ${current.versionId}. Read it again and apply your change to it.`
      : `Entry "${id}" has no version ${expected} (VERSION_CONFLICT): it does not exist yet. Send the creation without If-Match.`,
  );
}

/** `PATCH /entries/:id`: merges `fields` by alias (null clears one); other given members replace. */
export async function patchEntry(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  id: string,
  patch: EntryPatch,
  options: { expectedVersionId?: string } = {},
): Promise<EntryView> {
  const rows = await deps.db.transaction(async (tx) => {
    const current = await lockEntry(tx, orgId, id);
    if (current.preview.status === 'DELETED') throw conflict(`Entry "${id}" is deleted.`);
    checkVersion(current.preview, options.expectedVersionId);
    const p = current.preview;
    const model = await requireEntryModel(tx, orgId, p.modelAlias);
    // Values of fields the model no longer has are dropped rather than refused as unknown.
    const kept = Object.fromEntries(Object.entries(p.fields).filter(([alias]) => model.fields.some((f) => f.alias === alias)));
    const fields = { ...kept, ...(patch.fields ?? {}) };
    const labels = patch.labels ?? p.labels;
    const siteId = patch.siteId ?? p.siteId;
    // locales merge per locale and alias, as fields do per alias
    const locales = patch.locales !== undefined ? mergeLocaleValues(p.locales, patch.locales) : p.locales;
    const content = await prepareOne(tx, orgId, model, id, { fields, locales: keptLocales(model, locales), labels, siteId });
    const [taken] = await reserveUniqueValues(tx, orgId, [{ entryId: id, model, fields: content.fields, locales: content.locales }]);
    if (taken.length > 0) throw invalid(taken);
    const next = await writeContent(tx, orgId, current, {
      ...content,
      siteId,
      labels,
      slug: patch.slug !== undefined ? patch.slug : p.slug,
      externalId: patch.externalId !== undefined ? patch.externalId : p.externalId,
      attrs: patch.attrs !== undefined ? patch.attrs : p.attrs,
    }, new Date());
    await recordEntryEvents(tx, orgId, contentEvents(false, next.preview));
    await bumpContentVersion(tx, orgId);
    return next;
  });
  return entryView(rows.preview, rows.delivery);
}

/**
 * Stored locale values of fields that are no longer localized (or gone) are dropped rather than
 * refused, as `fields` of removed fields are.
 */
function keptLocales(model: StoredModel, locales: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!locales) return null;
  const localized = new Set(model.fields.filter((f) => f.localized).map((f) => f.alias));
  return Object.fromEntries(
    Object.entries(locales).map(([code, values]) => [
      code,
      values && typeof values === 'object' ? Object.fromEntries(Object.entries(values).filter(([alias]) => localized.has(alias))) : values,
    ]),
  );
}

/** The entry's rows, locked for the transaction; 404 when the org has no such entry. */
export async function lockEntry(tx: Queryable, orgId: string, id: string): Promise<EntryRows> {
  await lockEntryKeys(tx, orgId, [id]);
  const rows = await findEntryRows(tx, orgId, id, { forUpdate: true });
  if (!rows.preview) throw notFound(`Entry "${id}"`);
  return { preview: rows.preview, delivery: rows.delivery };
}

export async function getEntry(deps: Pick<ContentDeps, 'db'>, orgId: string, id: string): Promise<EntryView> {
  const rows = await findEntryRows(deps.db, orgId, id);
  if (!rows.preview) throw notFound(`Entry "${id}"`);
  return entryView(rows.preview, rows.delivery);
}

/**
 * `GET /entries`: a page of the org's entries in listing order (see `listEntryRows`). With a
 * locale, each entry's fields (and title) are those read in it, with its fallbacks, as GraphQL
 * answers them; `locale` names it and the other locales' values are left out.
 */
export async function listEntries(
  deps: Pick<ContentDeps, 'db'>,
  orgId: string,
  filter: Omit<EntryListFilter, 'search' | 'sort' | 'hasLocale'> & { locale?: string; search?: string; hasLocale?: string; sort?: EntrySort; order?: 'asc' | 'desc' },
  page: { offset: number; limit: number },
) {
  const { locale, search, hasLocale, sort, order, ...rest } = filter;
  const inLocale = locale === undefined ? null : await localeReader(deps.db, orgId, locale);
  const locales = search === undefined && hasLocale === undefined ? null : orgLocales(await findLocales(deps.db, orgId));
  const words = search === undefined ? undefined : entrySearch(search, locale, locales)!;
  const translated = hasLocale === undefined ? undefined : translatedInto(hasLocale, locales);
  const sorted = sort === undefined ? {} : { sort: { by: sort, descending: (order ?? (sort === 'updatedAt' || sort === 'createdAt' ? 'desc' : 'asc')) === 'desc' } };
  const { items, total } = await listEntryRows(deps.db, orgId, { ...rest, ...(words ? { search: words } : {}), ...(translated ? { hasLocale: translated } : {}), ...sorted }, page);
  return {
    items: items.map(({ row, publishedVersionId }): EntryView => {
      const view = { ...entryView(row, null), publishedVersionId };
      return inLocale ? inLocale(view) : view;
    }),
    total,
  };
}

/**
 * The non-default locale an entry must have values in to be listed under `code`; undefined for
 * the default locale (every entry has it); 400 for a locale the org does not have.
 */
function translatedInto(code: string, locales: ReturnType<typeof orgLocales>): string | undefined {
  if (!locales?.chainOf(code)) throw badRequest(unknownLocaleMessage(code, locales), [`hasLocale: ${unknownLocaleMessage(code, locales)}`]);
  return code === locales.defaultCode ? undefined : code;
}

/** Turns an entry view into the same entry read in `code`; 400 for a locale the org does not have. */
async function localeReader(db: Queryable, orgId: string, code: string): Promise<(view: EntryView) => EntryView> {
  const [locales, models] = await Promise.all([findLocales(db, orgId).then(orgLocales), listModels(db, orgId)]);
  const chain = locales?.chainOf(code);
  if (!chain) throw badRequest(unknownLocaleMessage(code, locales), [`locale: ${unknownLocaleMessage(code, locales)}`]);
  const byAlias = new Map(models.map((m) => [m.alias, m]));
  return ({ locales, ...view }) => ({ ...view, ...readInLocale(byAlias.get(view.model), { ...view, locales }, chain), locale: code });
}
