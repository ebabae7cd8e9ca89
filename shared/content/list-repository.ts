import type { Queryable } from '../adapters/db/index.js';

export interface ListItem {
  entryId: string;
  startAt: string | null;
  endAt: string | null;
}

export async function listItems(db: Queryable, orgId: string, listId: string): Promise<ListItem[]> {
  const { rows } = await db.query<{ entry_id: string; start_at: Date | null; end_at: Date | null }>(
    'SELECT entry_id, start_at, end_at FROM list_entries WHERE org_id = $1 AND list_id = $2 ORDER BY position',
    [orgId, listId],
  );
  return rows.map((r) => ({ entryId: r.entry_id, startAt: r.start_at?.toISOString() ?? null, endAt: r.end_at?.toISOString() ?? null }));
}

/** Replaces the list's entries; position = index in `items`. */
export async function replaceListItems(tx: Queryable, orgId: string, listId: string, items: ListItem[]): Promise<void> {
  await tx.query('DELETE FROM list_entries WHERE org_id = $1 AND list_id = $2', [orgId, listId]);
  if (items.length === 0) return;
  await tx.query(
    `INSERT INTO list_entries (org_id, list_id, position, entry_id, start_at, end_at)
     SELECT $1, $2, t.ord - 1, t.e, t.s::timestamptz, t.x::timestamptz
     FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(e, s, x, ord)`,
    [orgId, listId, items.map((i) => i.entryId), items.map((i) => i.startAt), items.map((i) => i.endAt)],
  );
}
