import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { DocumentStore } from '../../shared/edge/document-store.js';
import { documentSha256 } from '../../shared/edge/persisted-document-repository.js';
import type { RequestState } from './request-state.js';

/** The parameters of a GraphQL request that may name its document instead of sending it. */
export interface DocumentParams {
  query?: string | null;
  extensions?: Record<string, unknown> | null;
  /** The GraphQL-over-HTTP persisted-documents parameter (GraphQL Code Generator, Relay). */
  documentId?: string | null;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Texts hashed by `digestOf`, for tests. */
export const digestStats = { hashed: 0 };

/**
 * A text's SHA-256, hashed once while remembered: a persisted-query client sends the same text
 * with its hash again and again. Asked only when a hash is sent or the org runs trusted
 * documents; a plain query is never hashed (that was a fiftieth of a request's CPU).
 */
const digests = new LRUCache<string, string>({ max: 2000, maxSize: 16 * 1024 * 1024, sizeCalculation: (_d, text) => text.length || 1 });
function digestOf(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digestStats.hashed++;
    digests.set(text, (digest = documentSha256(text)));
  }
  return digest;
}

const error = (message: string, code: string, status: number) =>
  new GraphQLError(message, { extensions: { code, http: { status, headers: { 'Cache-Control': 'no-store' } } } });

/** Trusted-documents mode refusing a document that is not registered (403). */
const onlyRegistered = (why: string) => error(`This organization runs only registered documents for delivery (trusted documents): ${why}`, 'PERSISTED_QUERY_ONLY', 403);

/** Whether the request names a document (by hash or id) rather than only sending its text. */
export const namesDocument = (p: DocumentParams): boolean => p.extensions?.persistedQuery !== undefined || (p.documentId !== undefined && p.documentId !== null);

/**
 * The text to run, following Apollo's automatic persisted queries (`extensions.persistedQuery:
 * {version: 1, sha256Hash}`) and registered ("trusted") documents (`documentId`, or the hash):
 *
 * - a hash alone: the registered text, else `PERSISTED_QUERY_NOT_FOUND` (the message is the
 *   `PersistedQueryNotFound` Apollo's clients look for; they then send the text with the hash);
 * - a hash with the text: the text, once its SHA-256 matches, remembered for the next request;
 * - in trusted-documents mode (an org setting; delivery only, preview runs anything) only
 *   registered documents run: by id, by hash, or text whose hash is registered — anything else,
 *   an unknown `documentId` too, is `PERSISTED_QUERY_ONLY` (403) and nothing is remembered; an
 *   unknown hash alone stays `PERSISTED_QUERY_NOT_FOUND`, as Apollo's clients expect.
 *
 * Null when the request carries no text and names no document: yoga says what is missing.
 */
export async function resolveDocumentText(store: DocumentStore, state: RequestState, params: DocumentParams): Promise<string | null> {
  const orgId = state.identity.orgId;
  const trusted = state.scope === 'delivery' && state.identity.delivery.trustedDocuments;
  const hash = persistedHashOf(params.extensions);
  const id = params.documentId ?? hash;
  if (params.documentId !== undefined && params.documentId !== null && (typeof params.documentId !== 'string' || params.documentId.length === 0 || params.documentId.length > 200)) {
    throw error('documentId must be a string of 1 to 200 characters.', 'BAD_USER_INPUT', 400);
  }
  const query = typeof params.query === 'string' && params.query.length > 0 ? params.query : null;

  if (query === null) {
    if (id === null) return null;
    const text = await store.find(orgId, id, { registeredOnly: trusted });
    // an unknown id is refused like any unregistered document; an unknown hash alone is Apollo's
    // "not found", to which its clients answer with the text (refused then)
    if (text === null && trusted && params.documentId) throw onlyRegistered('no document is registered under this documentId.');
    if (text === null) throw error('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200);
    return text;
  }

  if (hash !== null && hash !== digestOf(query)) throw error('The persisted query hash does not match the SHA-256 of the query sent with it.', 'BAD_USER_INPUT', 400);
  if (trusted) {
    const registered = await store.find(orgId, params.documentId ?? digestOf(query), { registeredOnly: true });
    if (registered === null || (params.documentId && registered !== query)) {
      throw onlyRegistered('register this one (POST /management/v1/persisted-documents) and send its id.');
    }
    return registered;
  }
  if (hash !== null) store.rememberAutomatic(orgId, hash, query);
  return query;
}

/** `extensions.persistedQuery.sha256Hash`, checked; null when there is no persistedQuery. */
function persistedHashOf(extensions: DocumentParams['extensions']): string | null {
  if (extensions === undefined || extensions === null) return null;
  if (typeof extensions !== 'object' || Array.isArray(extensions)) throw error('extensions must be an object.', 'BAD_USER_INPUT', 400);
  const persisted = extensions.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
  if (persisted === undefined) return null;
  if (typeof persisted !== 'object' || persisted === null) throw error('extensions.persistedQuery must be an object.', 'BAD_USER_INPUT', 400);
  if (persisted.version !== 1) throw error('PersistedQueryNotSupported: only version 1 of persisted queries is supported.', 'PERSISTED_QUERY_NOT_SUPPORTED', 400);
  if (typeof persisted.sha256Hash !== 'string' || !SHA256_HEX.test(persisted.sha256Hash)) {
    throw error('extensions.persistedQuery.sha256Hash must be 64 lowercase hexadecimal characters.', 'BAD_USER_INPUT', 400);
  }
  return persisted.sha256Hash;
}
