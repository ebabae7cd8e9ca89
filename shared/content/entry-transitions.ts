import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';
import { newVersionId } from '../ids.js';
import type { EntryRow, NewEntryRow } from './entry-row.js';
import type { Edge } from './edges.js';
import { deleteEdgesOf, deleteEntryRows, insertEdges, insertEntryRows, updateEntryRow, updateEntryRows } from './entry-repository.js';
import type { PreparedContent } from './entry-prepare.js';

/** The rows of one entry, locked by the caller's transaction. */
export interface EntryRows {
  preview: EntryRow;
  delivery: EntryRow | null;
}

/** Everything a content write sets on the current version. */
export interface ContentChange extends PreparedContent {
  siteId: string;
  slug: string | null;
  externalId: string | null;
  labels: string[];
  attrs: unknown;
}

/** How one entry's rows change when its content is rewritten (see `planContent`). */
export interface ContentPlan {
  /** The row that holds the new content: an existing row (updated) or a new one (inserted). */
  content: EntryRow | NewEntryRow;
  edges: Edge[];
  /** An existing row rewritten beside it (the published version, no longer the preview). */
  kept: EntryRow | null;
  /** A separate delivery row that goes (replaced by the published content). */
  dropped: number | null;
  /** The delivery version afterwards, unless it is `content`. */
  delivery: EntryRow | null;
}

/**
 * Plans a content write, and with `publishAt` its publication. A published, unchanged entry is
 * one row read by both preview and delivery: unless it is published again, it becomes
 * delivery-only and a new preview row with status EDITED holds the change, so delivery keeps the
 * last published version. Otherwise the preview row is rewritten in place.
 */
export function planContent(rows: EntryRows, change: ContentChange, now: Date, publishAt?: Date): ContentPlan {
  const { preview } = rows;
  const { edges, ...content } = change;
  const rewritten = { ...preview, ...content, versionId: newVersionId(), updatedAt: now };
  if (publishAt) {
    const dropped = rows.delivery && rows.delivery.rowId !== preview.rowId ? rows.delivery.rowId : null;
    return { content: { ...rewritten, ...publishedColumns(preview, publishAt) }, edges, kept: null, dropped, delivery: null };
  }
  if (preview.inDelivery) {
    const kept = { ...preview, inPreview: false };
    const { rowId: _shared, ...base } = rewritten;
    return { content: { ...base, inPreview: true, inDelivery: false, status: 'EDITED' }, edges, kept, dropped: null, delivery: kept };
  }
  return { content: rewritten, edges, kept: null, dropped: null, delivery: rows.delivery };
}

/**
 * Carries out content plans of different entries with a handful of statements whatever their
 * number (an import replaces a thousand entries at a time). Returns each entry's rows afterwards.
 */
export async function applyContentPlans(tx: Queryable, orgId: string, plans: ContentPlan[]): Promise<EntryRows[]> {
  await deleteEntryRows(tx, plans.flatMap((p) => (p.dropped === null ? [] : [p.dropped])));
  const rewritten = plans.flatMap((p) => ('rowId' in p.content ? [p.content] : []));
  await updateEntryRows(tx, [...plans.flatMap((p) => (p.kept ? [p.kept] : [])), ...rewritten]);
  await deleteEdgesOf(tx, rewritten.map((r) => r.rowId));
  const inserted = await insertEntryRows(tx, orgId, plans.flatMap((p) => ('rowId' in p.content ? [] : [p.content])));
  const stored = plans.map((p): EntryRow => ('rowId' in p.content ? p.content : { ...p.content, ...inserted.get(p.content.id)! }));
  await insertEdges(tx, orgId, plans.flatMap((p, i) => p.edges.map((e) => ({ ...e, rowId: stored[i].rowId, sourceId: stored[i].id }))));
  return plans.map((p, i) => ({ preview: stored[i], delivery: stored[i].inDelivery ? stored[i] : p.delivery }));
}

/** Writes new content (see `planContent`). */
export async function writeContent(tx: Queryable, orgId: string, rows: EntryRows, change: ContentChange, now: Date): Promise<EntryRows> {
  const [next] = await applyContentPlans(tx, orgId, [planContent(rows, change, now)]);
  return next;
}

/** The columns publication sets on a row, published at `at`. */
function publishedColumns(row: EntryRow, at: Date) {
  return {
    inDelivery: true,
    status: 'PUBLISHED' as const,
    publishedAt: at,
    firstPublishedAt: row.firstPublishedAt ?? at,
    scheduledAt: null,
  };
}

/** Drops the delivery version: a separate delivery-only row is deleted, a shared row loses its flag. */
async function withdraw(tx: Queryable, rows: EntryRows): Promise<void> {
  if (rows.delivery && rows.delivery.rowId !== rows.preview.rowId) await deleteEntryRows(tx, [rows.delivery.rowId]);
}

export async function publish(tx: Queryable, rows: EntryRows, now: Date, at: Date = now): Promise<EntryRows> {
  const { preview } = rows;
  if (preview.status === 'DELETED') throw conflict('A deleted entry cannot be published.');
  if (preview.inDelivery && preview.status === 'PUBLISHED') return rows;
  await withdraw(tx, rows);
  const updated = await updateEntryRow(tx, preview.rowId, { ...publishedColumns(preview, at), versionId: newVersionId(), updatedAt: now });
  return { preview: updated, delivery: updated };
}

export async function unpublish(tx: Queryable, rows: EntryRows, now: Date): Promise<EntryRows> {
  if (!rows.delivery) throw conflict(`The entry is not published (status ${rows.preview.status}).`);
  await withdraw(tx, rows);
  const updated = await updateEntryRow(tx, rows.preview.rowId, {
    inDelivery: false,
    status: 'UNPUBLISHED',
    unpublishedAt: now,
    scheduledAt: null,
    unpublishAt: null,
    versionId: newVersionId(),
    updatedAt: now,
  });
  return { preview: updated, delivery: null };
}

/** ARCHIVED or DELETED: kept, invisible to delivery. */
export async function retire(tx: Queryable, rows: EntryRows, status: 'ARCHIVED' | 'DELETED', now: Date): Promise<EntryRows> {
  const current = rows.preview.status;
  if (current === status) return rows;
  if (current === 'DELETED') throw conflict('The entry is deleted.');
  await withdraw(tx, rows);
  const updated = await updateEntryRow(tx, rows.preview.rowId, {
    inDelivery: false,
    status,
    scheduledAt: null,
    unpublishAt: null,
    versionId: newVersionId(),
    updatedAt: now,
  });
  return { preview: updated, delivery: null };
}

/**
 * SCHEDULED: the current version is published at `at` by the scheduled-publish worker. A live
 * entry that is unchanged has nothing to schedule (its current version is already published).
 */
export async function schedule(tx: Queryable, rows: EntryRows, at: Date, now: Date): Promise<EntryRows> {
  const { preview } = rows;
  if (preview.status === 'DELETED') throw conflict('A deleted entry cannot be scheduled.');
  if (preview.inDelivery) throw conflict('The entry is already published; change it before scheduling a new version.');
  const updated = await updateEntryRow(tx, preview.rowId, {
    status: 'SCHEDULED',
    scheduledAt: at,
    versionId: newVersionId(),
    updatedAt: now,
  });
  return { preview: updated, delivery: rows.delivery };
}
