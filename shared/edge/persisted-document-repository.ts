import { createHash } from 'node:crypto';
import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';

// All SQL on `persisted_documents`; every statement is scoped by org.

/** A document's SHA-256 in hex: its persisted-query hash, and its id when none is given. */
export const documentSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface PersistedDocument {
  id: string;
  sha256: string;
  name: string | null;
  document: string;
  createdAt: Date;
}

interface Row {
  id: string;
  sha256: string;
  name: string | null;
  document: string;
  created_at: Date;
}

const toDocument = (r: Row): PersistedDocument => ({ id: r.id, sha256: r.sha256, name: r.name, document: r.document, createdAt: r.created_at });

/**
 * Registers documents; one already registered under the same id keeps its text unless the text
 * is the same (a manifest uploaded again is a no-op). Returns how many were new, and the ids that
 * already named a different document (refused: an id means one text for good).
 */
export async function registerDocuments(
  db: Queryable,
  orgId: string,
  docs: { id: string; sha256: string; document: string; name: string | null }[],
): Promise<{ added: number; conflicts: string[] }> {
  const { rows } = await db.query<{ id: string; added: boolean; same: boolean }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS d(id text, sha256 text, document text, name text)
     ), added AS (
       INSERT INTO persisted_documents (org_id, id, sha256, document, name)
       SELECT $1, id, sha256, document, name FROM input
       ON CONFLICT (org_id, id) DO NOTHING
       RETURNING id
     )
     SELECT i.id, a.id IS NOT NULL AS added, COALESCE(p.sha256 = i.sha256, false) AS same
     FROM input i LEFT JOIN added a ON a.id = i.id
     LEFT JOIN persisted_documents p ON p.org_id = $1 AND p.id = i.id`,
    [orgId, JSON.stringify(docs)],
  );
  return { added: rows.filter((r) => r.added).length, conflicts: rows.filter((r) => !r.added && !r.same).map((r) => r.id) };
}

/** The document registered under `id`, or whose SHA-256 is `id`. */
export async function findDocument(db: Queryable, orgId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ document: string }>(
    'SELECT document FROM persisted_documents WHERE org_id = $1 AND (id = $2 OR sha256 = $2) LIMIT 1',
    [orgId, id],
  );
  return rows[0]?.document ?? null;
}

export async function listDocuments(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<Row>('SELECT id, sha256, name, document, created_at FROM persisted_documents WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3', [orgId, page.limit, page.offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM persisted_documents WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toDocument), total: total.rows[0].n };
}

export async function deleteDocument(db: Queryable, orgId: string, id: string): Promise<void> {
  const r = await db.query('DELETE FROM persisted_documents WHERE org_id = $1 AND id = $2', [orgId, id]);
  if ((r.rowCount ?? 0) === 0) throw notFound('Persisted document');
}

export async function countDocuments(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM persisted_documents WHERE org_id = $1', [orgId]);
  return rows[0].n;
}
