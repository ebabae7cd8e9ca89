import type { Db, Queryable } from '../../adapters/db/index.js';
import { listAssets } from '../../assets/asset-repository.js';
import type { Asset } from '../../assets/types.js';
import { listSites } from '../../tenancy/site-repository.js';
import { entriesAfter } from '../entry-repository.js';
import type { ExportEntryRow } from '../entry-row.js';
import { listItems } from '../list-repository.js';
import { findLocales } from '../locale-repository.js';
import type { Locale } from '../locale-types.js';
import { listComponentRows, type StoredComponent } from '../component-repository.js';
import { listModels, type StoredModel } from '../model-repository.js';
import type { FieldDefinition } from '../model-types.js';
import { authorInputSchema, labelInputSchema, listInputSchema, sectionInputSchema } from '../resource-input.js';
import { listResourcePage, type ResourceDef } from '../resources.js';
import { authorDef } from '../authors.js';
import { labelDef } from '../labels.js';
import { listDef } from '../lists.js';
import { sectionDef } from '../sections.js';

/** One line of an export, before it is written: an import line (`type` and the body the import takes for it). */
type ExportLine = { type: string } & Record<string, unknown>;

export interface ExportDeps {
  db: Db;
  /** The public URL of an asset's original (`/files/…`), from which an import copies its bytes. */
  fileUrl(asset: Asset): string;
}

/** Rows read per statement: memory stays bounded by a page, whatever the org's size. */
const PAGE = 1000;

/**
 * The organization's content as the lines of an import (NDJSON lines, without their newline), in an order the import applies without
 * a failure: sites, locales (the default first, each before the locales that fall back to it), components (those with references
 * again after the models), models, assets, sections (parents first), authors, labels, entries (each after
 * the entries it references), lists; a video after the image that is its poster. Read a page at a time, so an export of any size holds a
 * page (and the ids of the entries written so far) in memory.
 *
 * What an import cannot recreate is written as the nearest thing it can: an unpublished or
 * scheduled entry as a draft (the schedule is not kept); a published entry with unpublished
 * edits as two lines, the published version, then the edit.
 */
export async function* exportLines(deps: ExportDeps, orgId: string): AsyncGenerator<string> {
  for await (const site of paged((page) => listSites(deps.db, orgId, page))) {
    yield lineOf({ type: 'site', id: site.id, name: site.name, externalId: site.externalId });
  }
  for (const l of fallbacksFirst(await findLocales(deps.db, orgId))) {
    yield lineOf({ type: 'locale', code: l.code, name: l.name, default: l.default || undefined, fallback: l.fallback });
  }
  const components = await listComponentRows(deps.db, orgId);
  for (const component of componentLines(components, 'before-models')) yield JSON.stringify(component);
  for (const model of modelLines(await listModels(deps.db, orgId))) yield JSON.stringify(model);
  for (const component of componentLines(components, 'after-models')) yield JSON.stringify(component);
  yield* assetLines(deps, orgId);
  for (const section of sectionLines(await allResources(deps.db, sectionDef, orgId))) yield JSON.stringify(section);
  for (const author of await allResources(deps.db, authorDef, orgId)) yield JSON.stringify(resourceLine('author', author, Object.keys(authorInputSchema.shape)));
  for (const label of await allResources(deps.db, labelDef, orgId)) yield JSON.stringify(resourceLine('label', label, Object.keys(labelInputSchema.shape)));
  yield* entryLines(deps.db, orgId);
  for (const list of await allResources(deps.db, listDef, orgId)) {
    yield JSON.stringify({ ...resourceLine('list', list, Object.keys(listInputSchema.shape)), entries: await listItems(deps.db, orgId, String(list.id)) });
  }
}

/** Locales each after the one it falls back to (chains cannot loop: the writes refuse it). */
function fallbacksFirst(locales: Locale[]): Locale[] {
  const out: Locale[] = [];
  for (let pending = locales; pending.length > 0; ) {
    const ready = pending.filter((l) => l.fallback === null || out.some((o) => o.code === l.fallback));
    out.push(...(ready.length > 0 ? ready : pending));
    pending = pending.filter((l) => !out.includes(l));
  }
  return out;
}

async function* paged<T>(read: (page: { offset: number; limit: number }) => Promise<{ items: T[] }>): AsyncGenerator<T> {
  for (let offset = 0; ; offset += PAGE) {
    const { items } = await read({ offset, limit: PAGE });
    yield* items;
    if (items.length < PAGE) return;
  }
}

/** Every record of a kind, as its GET shows it (a section with its media). */
async function allResources(db: Db, def: ResourceDef, orgId: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const r of paged((page) => listResourcePage({ db }, def, orgId, page))) out.push(r);
  return out;
}

/** Members the import takes, without empty ones (null means "unset" there too). */
function compact(line: Record<string, unknown>): ExportLine {
  return Object.fromEntries(Object.entries(line).filter(([, v]) => v !== null && v !== undefined)) as ExportLine;
}

const lineOf = (line: ExportLine): string => JSON.stringify(compact(line));

const resourceLine = (type: string, record: Record<string, unknown>, members: string[]): ExportLine =>
  compact({ type, ...Object.fromEntries(members.map((m) => [m, record[m]])) });

/** A field definition as a model or component line carries it; `allowed` filters its allowed models. */
const fieldLine = (f: FieldDefinition, allowed: (alias: string) => boolean) =>
  compact({ alias: f.alias, type: f.type, valueType: f.valueType, numberFormat: f.numberFormat, allowedModels: f.allowedModels.filter(allowed), required: f.required, localized: f.localized, validations: f.validations, components: f.components });

/**
 * Components, each after the components it holds (they cannot hold each other in a cycle). Before
 * the models (which use them) their references allow no model yet (`allowedModels` empty); after
 * the models, those with allowed models are written again whole.
 */
function componentLines(components: StoredComponent[], phase: 'before-models' | 'after-models'): ExportLine[] {
  const line = (c: StoredComponent): ExportLine => ({ type: 'component', alias: c.alias, name: c.name, fields: c.fields.map((f) => fieldLine(f, () => phase === 'after-models')) });
  if (phase === 'after-models') return components.filter((c) => c.fields.some((f) => f.allowedModels.length > 0)).map(line);
  const out: ExportLine[] = [];
  const written = new Set<string>();
  for (let pending = components; pending.length > 0; ) {
    const ready = pending.filter((c) => c.fields.every((f) => (f.components ?? []).every((a) => written.has(a))));
    for (const c of ready.length > 0 ? ready : pending) {
      out.push(line(c));
      written.add(c.alias);
    }
    pending = pending.filter((c) => !written.has(c.alias));
  }
  return out;
}

/**
 * Models in an order where each one's allowed models come before it; models that allow each
 * other (a cycle) are written first without those, then again whole.
 */
function* modelLines(models: StoredModel[]): Generator<ExportLine> {
  const line = (m: StoredModel, allowed: (alias: string) => boolean): ExportLine => ({
    type: 'model',
    alias: m.alias,
    name: m.name,
    titleField: m.titleField,
    ...(m.previewUrl ? { previewUrl: m.previewUrl } : {}),
    fields: m.fields.map((f) => fieldLine(f, allowed)),
  });
  const written = new Set<string>();
  const later: StoredModel[] = [];
  for (let pending = models; pending.length > 0; ) {
    const ready = pending.filter((m) => m.fields.every((f) => f.allowedModels.every((a) => a === m.alias || written.has(a))));
    const next = ready.length > 0 ? ready : [pending[0]];
    for (const m of next) {
      if (ready.length === 0) later.push(m);
      yield line(m, (a) => a === m.alias || written.has(a));
      written.add(m.alias);
    }
    pending = pending.filter((m) => !written.has(m.alias));
  }
  for (const m of later) yield line(m, () => true);
}

/** Sections with each parent before its children. */
function* sectionLines(sections: Record<string, unknown>[]): Generator<ExportLine> {
  const members = Object.keys(sectionInputSchema.shape);
  const written = new Set<string>();
  for (let pending = sections; pending.length > 0; ) {
    const ready = pending.filter((s) => s.parentId === null || s.parentId === undefined || written.has(s.parentId as string));
    // a parent that is not there (cannot happen: the tree is kept whole) would stall the loop
    for (const s of ready.length > 0 ? ready : pending) {
      const mediaIds = s.mediaIds as string[] | undefined;
      yield { ...resourceLine('section', s, members), ...(mediaIds && mediaIds.length > 0 ? { mediaIds } : {}) };
      written.add(s.id as string);
    }
    pending = pending.filter((s) => !written.has(s.id as string));
  }
}

/**
 * Assets a page at a time, oldest first — an import creates them in line order, so the copy lists
 * them newest first as the original does — except that a video is held back until the image
 * that is its poster is written (an import line may use earlier lines only, and the import
 * refuses a poster that is not there yet). A poster that never comes (deleted since it was
 * chosen, so the video shows none) is left out of the line.
 */
async function* assetLines(deps: ExportDeps, orgId: string): AsyncGenerator<string> {
  const written = new Set<string>();
  const waiting = new Map<string, Asset[]>();
  const write = function* (a: Asset): Generator<string> {
    yield JSON.stringify(assetLine(deps, a));
    written.add(a.id);
    const posterOf = waiting.get(a.id) ?? [];
    waiting.delete(a.id);
    for (const video of posterOf) yield* write(video);
  };
  for await (const asset of paged((page) => listAssets(deps.db, orgId, page, { oldestFirst: true }))) {
    const poster = asset.posterAssetId;
    if (poster && poster !== asset.id && !written.has(poster)) waiting.set(poster, [...(waiting.get(poster) ?? []), asset]);
    else yield* write(asset);
  }
  for (const videos of waiting.values()) for (const video of videos) yield JSON.stringify(assetLine(deps, { ...video, posterAssetId: null }));
}

/** An asset's line: where its bytes are, its metadata, focal points and poster (the asset line schema of the import). */
function assetLine(deps: ExportDeps, a: Asset): ExportLine {
  return compact({
    type: 'asset',
    id: a.id,
    url: deps.fileUrl(a),
    title: a.title,
    fileName: a.fileName,
    path: a.path,
    caption: a.caption,
    alt: a.alt,
    author: a.author,
    source: a.source,
    tags: a.tags,
    externalId: a.externalId,
    focalPoint: a.focalPoint,
    focalPoints: a.focalPoints.length > 0 ? a.focalPoints : undefined,
    posterAssetId: a.posterAssetId,
  });
}

/** JSON text of a string, or nothing for null. */
const quoted = (s: string | null | undefined): string | null => (s === null || s === undefined ? null : JSON.stringify(s));

/** `,"key":value` for JSON text, or nothing when there is no value (SQL NULL or a JSON null: "unset" to an import). */
const member = (key: string, json: string | null): string => (json === null || json === 'null' ? '' : `,"${key}":${json}`);

/**
 * The `entry` line of one version: its content, and its status and dates where the import takes
 * them. Written as text: its JSON values go in as Postgres sent them (an export is mostly these,
 * and building an object of each line to serialize it again cost a quarter of an export's time).
 */
export function entryLine(row: ExportEntryRow, version: 'published' | 'draft' | 'archived' | 'edit'): string {
  const published = version === 'published' || version === 'archived';
  return (
    '{"type":"entry"' +
    member('id', quoted(row.id)) +
    member('model', quoted(row.modelAlias)) +
    member('siteId', quoted(row.siteId)) +
    member('slug', quoted(row.slug)) +
    member('externalId', quoted(row.externalId)) +
    member('labels', JSON.stringify(row.labels)) +
    member('attrs', row.attrs) +
    member('fields', row.fields) +
    member('locales', row.locales) +
    member('status', version === 'published' ? '"PUBLISHED"' : version === 'archived' ? '"ARCHIVED"' : null) +
    member('createdAt', version === 'edit' ? null : quoted(row.createdAt.toISOString())) +
    member('publishedAt', published ? quoted(row.publishedAt?.toISOString()) : null) +
    member('firstPublishedAt', published ? quoted(row.firstPublishedAt?.toISOString()) : null) +
    '}'
  );
}

function* linesOfEntry(e: { preview: ExportEntryRow; delivery: ExportEntryRow | null }): Generator<string> {
  if (e.delivery) {
    yield entryLine(e.delivery, 'published');
    if (e.delivery !== e.preview && e.preview.rowId !== e.delivery.rowId) yield entryLine(e.preview, 'edit');
  } else yield entryLine(e.preview, e.preview.status === 'ARCHIVED' ? 'archived' : 'draft');
}

/**
 * Entries in listing order, each held back until the entries it references are written (an
 * import line may reference earlier lines only). What references round in a circle is written
 * at the end, first without the references that close the circle, then whole.
 */
async function* entryLines(db: Queryable, orgId: string): AsyncGenerator<string> {
  const written = new Set<string>();
  let waiting: { preview: ExportEntryRow; delivery: ExportEntryRow | null; references: string[] }[] = [];
  const ready = (e: { preview: ExportEntryRow; references: string[] }) => e.references.every((r) => r === e.preview.id || written.has(r));
  const release = function* (): Generator<string> {
    for (let progress = true; progress && waiting.length > 0; ) {
      const now = waiting.filter(ready);
      progress = now.length > 0;
      waiting = waiting.filter((e) => !ready(e));
      for (const e of now) {
        yield* linesOfEntry(e);
        written.add(e.preview.id);
      }
    }
  };
  // The next page is read while this one is written out.
  let next: ReturnType<typeof entriesAfter> | null = entriesAfter(db, orgId, 0, PAGE);
  try {
    while (next) {
      const page: Awaited<ReturnType<typeof entriesAfter>> = await next;
      next = page.length === PAGE ? entriesAfter(db, orgId, page[page.length - 1].seq, PAGE) : null;
      for (const e of page) {
        if (ready(e)) {
          yield* linesOfEntry(e);
          written.add(e.preview.id);
          if (waiting.length > 0) yield* release();
        } else waiting.push(e);
      }
    }
  } finally {
    // a reader that stopped early leaves a page being read: its failure is nobody's to handle
    next?.catch(() => undefined);
  }
  // References to entries that are gone (deleted, or never there) hold nothing back.
  const live = new Set([...written, ...waiting.map((e) => e.preview.id)]);
  for (const e of waiting) e.references = e.references.filter((r) => live.has(r));
  yield* release();
  if (waiting.length === 0) return;
  const circle = new Set(waiting.map((e) => e.preview.id));
  for (const e of waiting) {
    const cut = (row: ExportEntryRow): ExportEntryRow => ({ ...row, fields: JSON.stringify(withoutReferencesTo(JSON.parse(row.fields) as Record<string, unknown>, circle)) });
    yield* linesOfEntry({ preview: cut(e.preview), delivery: e.delivery && (e.delivery === e.preview ? cut(e.preview) : cut(e.delivery)) });
    written.add(e.preview.id);
  }
  for (const e of waiting) yield* linesOfEntry(e);
}

/** Field values with every reference to `ids` left out (single references become null), inside component values too. */
function withoutReferencesTo(fields: Record<string, unknown>, ids: Set<string>): Record<string, unknown> {
  const isComponent = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { component?: unknown }).component === 'string';
  const inComponent = (c: Record<string, unknown>) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === 'component' ? v : strip(v)]));
  const strip = (v: unknown): unknown => {
    if (typeof v === 'string') return ids.has(v) ? null : v;
    if (Array.isArray(v)) return v.filter((x) => !(typeof x === 'string' && ids.has(x))).map((x) => (isComponent(x) ? inComponent(x) : x));
    return isComponent(v) ? inComponent(v) : v;
  };
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, strip(v)]));
}
