import { LRUCache } from 'lru-cache';
import type { Queryable } from '../adapters/db/index.js';
import { candidatesOf, pathSegments, type CompiledPattern, type EntryCandidate, type EntryKey } from '../analytics/url-patterns.js';
import { findDistributionUrlPatterns } from '../tenancy/site-repository.js';

/** How long a process uses a distribution's patterns, and what a path resolved to, before reading again. */
const PATTERNS_MS = 30_000;
const ENTRIES_MS = 60_000;

/**
 * Resolves the paths of log lines to the entries they served, by the URL patterns of the sites
 * serving the distribution. One per process, made in Services: patterns and resolved entries are
 * remembered briefly, so a batch costs no Postgres read once its paths were seen.
 */
export interface EntryResolver {
  /** The entry id of each path ('' where no pattern matches or no entry has that slug, id or external id). */
  resolve(orgId: string, distributionId: string, paths: readonly string[]): Promise<string[]>;
  /** Forgets an organization's patterns (they were just changed here). */
  forget(orgId: string): void;
}

const candidateKey = (orgId: string, c: EntryCandidate) => `${orgId}\0${c.siteId}\0${c.model ?? ''}\0${c.key}\0${c.key === 'slug' ? c.value.toLowerCase() : c.value}`;

const KEY_SQL: Record<EntryKey, { where: string; value: string }> = {
  slug: { where: 'lower(slug) = ANY ($2::text[])', value: 'lower(slug)' },
  id: { where: 'id = ANY ($2::text[])', value: 'id' },
  externalId: { where: 'external_id = ANY ($2::text[])', value: 'external_id' },
};

interface Found {
  id: string;
  site_id: string;
  model_alias: string;
  value: string;
  in_delivery: boolean;
}

export function createEntryResolver(db: Queryable): EntryResolver {
  const patterns = new LRUCache<string, { orgId: string; list: CompiledPattern[] }>({ max: 10_000, ttl: PATTERNS_MS });
  const entries = new LRUCache<string, string>({ max: 200_000, ttl: ENTRIES_MS });

  const patternsOf = async (orgId: string, distributionId: string) => {
    const key = `${orgId}\0${distributionId}`;
    let hit = patterns.get(key);
    if (!hit) {
      hit = { orgId, list: await findDistributionUrlPatterns(db, orgId, distributionId) };
      patterns.set(key, hit);
    }
    return hit.list;
  };

  /** Looks up the candidates not remembered, one statement per kind of key. */
  const lookUp = async (orgId: string, missing: EntryCandidate[]) => {
    for (const key of ['slug', 'id', 'externalId'] as const) {
      const ofKey = missing.filter((c) => c.key === key);
      if (ofKey.length === 0) continue;
      const values = [...new Set(ofKey.map((c) => (key === 'slug' ? c.value.toLowerCase() : c.value)))];
      // a slug may be reused: for each site and value, published entries first, then by id; a
      // deleted entry's page is gone, so its lines are no entry's
      const { rows } = await db.query<Found>(
        `SELECT DISTINCT ON (site_id, model_alias, ${KEY_SQL[key].value}) id, site_id, model_alias, ${KEY_SQL[key].value} AS value, in_delivery
         FROM entries WHERE org_id = $1 AND ${KEY_SQL[key].where} AND status <> 'DELETED'
         ORDER BY site_id, model_alias, ${KEY_SQL[key].value}, in_delivery DESC, id`,
        [orgId, values],
      );
      const bySiteValue = new Map<string, Found[]>();
      for (const r of rows.sort((a, b) => Number(b.in_delivery) - Number(a.in_delivery) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        const k = `${r.site_id}\0${r.value}`;
        const list = bySiteValue.get(k);
        if (list) list.push(r);
        else bySiteValue.set(k, [r]);
      }
      for (const c of ofKey) {
        const found = bySiteValue.get(`${c.siteId}\0${key === 'slug' ? c.value.toLowerCase() : c.value}`)?.find((r) => c.model === null || r.model_alias === c.model);
        entries.set(candidateKey(orgId, c), found?.id ?? '');
      }
    }
  };

  return {
    async resolve(orgId, distributionId, paths) {
      const list = await patternsOf(orgId, distributionId);
      if (list.length === 0) return paths.map(() => '');
      const byPath = new Map<string, EntryCandidate[]>();
      for (const p of paths) if (!byPath.has(p)) byPath.set(p, candidatesOf(list, pathSegments(p)));
      const missing = new Map<string, EntryCandidate>();
      for (const cs of byPath.values()) for (const c of cs) if (!entries.has(candidateKey(orgId, c))) missing.set(candidateKey(orgId, c), c);
      if (missing.size > 0) await lookUp(orgId, [...missing.values()]);
      const resolved = new Map<string, string>();
      for (const [p, cs] of byPath) {
        // the first pattern, in order, whose reading names an entry
        resolved.set(p, cs.map((c) => entries.get(candidateKey(orgId, c)) ?? '').find((id) => id !== '') ?? '');
      }
      return paths.map((p) => resolved.get(p)!);
    },
    forget(orgId) {
      for (const [key, v] of patterns.entries()) if (v.orgId === orgId) patterns.delete(key);
    },
  };
}
