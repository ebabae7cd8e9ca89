import type { Queryable } from '../db/index.js';
import { conflict } from '../errors/index.js';
import { newVersionId } from '../ids.js';
import type { EntryRow } from './entry-row.js';
import { deleteEntryRow, insertEdges, insertEntryRows, replaceEdges, updateEntryRow } from './entry-store.js';
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

/**
 * Writes new content. A published, unchanged entry is one row read by
 * both preview and delivery: it becomes delivery-only and a new preview row with status EDITED
 * holds the change, so delivery keeps the last published version. Otherwise the preview row is
 * updated in place.
 */
export async function writeContent(tx: Queryable, orgId: string, rows: EntryRows, change: ContentChange, now: Date): Promise<EntryRows> {
  const { preview } = rows;
  const { edges, ...content } = change;
  if (preview.inDelivery) {
    const delivery = await updateEntryRow(tx, preview.rowId, { inPreview: false });
    const { rowId: _old, ...base } = preview;
    const next = { ...base, ...content, inPreview: true, inDelivery: false, status: 'EDITED' as const, versionId: newVersionId(), updatedAt: now };
    const ids = await insertEntryRows(tx, orgId, [next]);
    const rowId = ids.get(preview.id)!;
    await insertEdges(tx, orgId, edges.map((e) => ({ ...e, rowId, sourceId: preview.id })));
    return { preview: { ...next, rowId }, delivery };
  }
  const updated = await updateEntryRow(tx, preview.rowId, { ...content, versionId: newVersionId(), updatedAt: now });
  await replaceEdges(tx, orgId, preview.rowId, preview.id, edges);
  return { preview: updated, delivery: rows.delivery };
}

/** Drops the delivery version: a separate delivery-only row is deleted, a shared row loses its flag. */
async function withdraw(tx: Queryable, rows: EntryRows): Promise<void> {
  if (rows.delivery && rows.delivery.rowId !== rows.preview.rowId) await deleteEntryRow(tx, rows.delivery.rowId);
}

export async function publish(tx: Queryable, rows: EntryRows, now: Date, at: Date = now): Promise<EntryRows> {
  const { preview } = rows;
  if (preview.status === 'DELETED') throw conflict('A deleted entry cannot be published.');
  if (preview.inDelivery && preview.status === 'PUBLISHED') return rows;
  await withdraw(tx, rows);
  const updated = await updateEntryRow(tx, preview.rowId, {
    inDelivery: true,
    status: 'PUBLISHED',
    publishedAt: at,
    firstPublishedAt: preview.firstPublishedAt ?? at,
    scheduledAt: null,
    versionId: newVersionId(),
    updatedAt: now,
  });
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
