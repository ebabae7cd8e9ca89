import { LRUCache } from 'lru-cache';
import type { Queryable } from '../adapters/db/index.js';
import { findDocument } from './persisted-document-repository.js';

/**
 * Where GraphQL documents sent by id are found: automatic persisted queries (Apollo's protocol)
 * that clients registered with this process, and documents the organization registered through
 * the management API. One per process, made in Services.
 */
export interface DocumentStore {
  /**
   * The text registered under `id` for the org: this process's automatic registrations (unless
   * `registeredOnly`), then the org's registered documents. Null when there is none.
   */
  find(orgId: string, id: string, options: { registeredOnly: boolean }): Promise<string | null>;
  /** An automatic registration: a client sent the text with its SHA-256 (checked by the caller). */
  rememberAutomatic(orgId: string, sha256: string, text: string): void;
}

/**
 * Automatic registrations live in memory (as in Apollo Server): a replica that does not know a
 * hash answers PERSISTED_QUERY_NOT_FOUND and the client sends the text once more. Bounded by
 * count and bytes, so one org's unique documents evict, not grow, the store. Registered
 * documents are read from Postgres and remembered for `ttlMs` (found or not), so a registration
 * or a deletion reaches every replica within that time.
 */
export function createDocumentStore(db: Queryable, options: { ttlMs?: number; automaticMax?: number; automaticBytes?: number } = {}): DocumentStore {
  const automatic = new LRUCache<string, string>({
    max: options.automaticMax ?? 10_000,
    maxSize: options.automaticBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (text) => Math.max(1, text.length),
  });
  const registered = new LRUCache<string, { text: string | null }>({ max: 20_000, ttl: options.ttlMs ?? 5000 });
  return {
    async find(orgId, id, { registeredOnly }) {
      const key = `${orgId}\0${id}`;
      const sent = registeredOnly ? undefined : automatic.get(key);
      if (sent !== undefined) return sent;
      let hit = registered.get(key);
      if (!hit) {
        hit = { text: await findDocument(db, orgId, id) };
        registered.set(key, hit);
      }
      return hit.text;
    },
    rememberAutomatic(orgId, sha256, text) {
      automatic.set(`${orgId}\0${sha256}`, text);
    },
  };
}
