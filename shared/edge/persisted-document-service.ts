import { parse } from 'graphql';
import type { Db } from '../adapters/db/index.js';
import { conflict, unprocessable } from '../errors/index.js';
import type { PersistedDocumentsInput } from './edge-input.js';
import { countDocuments, documentSha256, registerDocuments } from './persisted-document-repository.js';

/** Documents an organization may register (a large app's manifest has a few hundred). */
export const MAX_DOCUMENTS_PER_ORG = 10_000;

/** An id that claims to be its text's SHA-256: 64 hex digits, bare or `sha256:`-prefixed (GraphQL Code Generator's default). */
const SHA256_ID = /^(?:sha256:)?([0-9a-f]{64})$/;

interface NewDocument {
  id: string;
  sha256: string;
  document: string;
  name: string | null;
}

/** The three accepted shapes as one list; a missing id is the text's SHA-256. */
function documentsOf(input: PersistedDocumentsInput): NewDocument[] {
  if ('documents' in input && Array.isArray(input.documents)) {
    return input.documents.map((d) => ({ id: d.id ?? documentSha256(d.document), sha256: documentSha256(d.document), document: d.document, name: d.name ?? null }));
  }
  const manifest = input as { format?: unknown; operations?: { id: string; body: string; name?: string }[] };
  if (manifest.format === 'apollo-persisted-query-manifest' && Array.isArray(manifest.operations)) {
    return manifest.operations.map((o) => ({ id: o.id, sha256: documentSha256(o.body), document: o.body, name: o.name ?? null }));
  }
  return Object.entries(input as Record<string, string>).map(([id, document]) => ({ id, sha256: documentSha256(document), document, name: null }));
}

/**
 * Registers documents for the org, all or none: each must parse as GraphQL, an id that looks like
 * a SHA-256 (`<hex>` or `sha256:<hex>`) must be its text's, and an id already registered must name the same text (409).
 * Registering a manifest again changes nothing.
 */
export async function registerPersistedDocuments(db: Db, orgId: string, input: PersistedDocumentsInput): Promise<{ added: number; total: number }> {
  const docs = documentsOf(input);
  const problems: string[] = [];
  for (const d of docs) {
    const claimed = SHA256_ID.exec(d.id)?.[1];
    if (claimed !== undefined && claimed !== d.sha256) problems.push(`${d.id}: the id is not the SHA-256 of the document`);
    try {
      parse(d.document, { noLocation: true });
    } catch (err) {
      problems.push(`${d.id}: ${(err as Error).message}`);
    }
    if (problems.length >= 20) break;
  }
  if (problems.length > 0) throw unprocessable('Some documents cannot be registered; none was.', problems);
  return db.transaction(async (tx) => {
    const { added, conflicts } = await registerDocuments(tx, orgId, docs);
    if (conflicts.length > 0) {
      throw conflict(`Already registered with another text: ${conflicts.slice(0, 20).join(', ')}. An id names one document for good; none was registered.`);
    }
    const total = await countDocuments(tx, orgId);
    if (total > MAX_DOCUMENTS_PER_ORG) throw unprocessable(`An organization has at most ${MAX_DOCUMENTS_PER_ORG} registered documents (this would make ${total}); none was registered.`);
    return { added, total };
  });
}
