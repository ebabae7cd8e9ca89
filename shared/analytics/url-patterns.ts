/**
 * URL patterns: how a site's page paths name its entries (`/articles/{slug}`,
 * `/{section}/{slug}`, `/e/{id}`), so that each CDN log line can be counted as traffic of the
 * entry it served. A pattern is literal segments and placeholders; exactly one placeholder names
 * the entry — `{slug}`, `{id}` or `{externalId}` — and any other (`{section}`) matches one
 * segment of any text.
 */

export type EntryKey = 'slug' | 'id' | 'externalId';
const ENTRY_KEYS: readonly EntryKey[] = ['slug', 'id', 'externalId'];

export interface UrlPattern {
  pattern: string;
  /** Only entries of this model (alias); any model when absent. */
  model?: string;
}

interface Segment {
  literal: string | null;
  /** The entry key this placeholder holds; null for a literal or another placeholder. */
  key: EntryKey | null;
}

export interface CompiledPattern {
  siteId: string;
  model: string | null;
  segments: Segment[];
  /** Index of the segment naming the entry. */
  at: number;
  key: EntryKey;
}

const PLACEHOLDER = /^\{([A-Za-z][A-Za-z0-9_]*)\}$/;
export const MAX_PATTERN_SEGMENTS = 16;

/** Why a pattern cannot be used, or null when it can. */
export function patternProblem(pattern: string): string | null {
  if (!pattern.startsWith('/')) return 'must start with "/"';
  const parts = pattern.slice(1).split('/');
  if (parts.length > MAX_PATTERN_SEGMENTS) return `at most ${MAX_PATTERN_SEGMENTS} segments`;
  let keys = 0;
  for (const part of parts) {
    if (part === '') return 'has an empty segment';
    const m = PLACEHOLDER.exec(part);
    if (m) {
      if ((ENTRY_KEYS as readonly string[]).includes(m[1])) keys++;
    } else if (/[{}?#\s]/.test(part)) {
      return `segment "${part}" is neither literal text nor one {placeholder}`;
    }
  }
  return keys === 1 ? null : 'needs exactly one of {slug}, {id} or {externalId}';
}

/** A valid pattern (see patternProblem) of a site, ready to match paths. */
export function compilePattern(siteId: string, p: UrlPattern): CompiledPattern {
  const segments = p.pattern
    .slice(1)
    .split('/')
    .map((part): Segment => {
      const m = PLACEHOLDER.exec(part);
      if (!m) return { literal: part, key: null };
      return { literal: null, key: (ENTRY_KEYS as readonly string[]).includes(m[1]) ? (m[1] as EntryKey) : null };
    });
  const at = segments.findIndex((s) => s.key !== null);
  return { siteId, model: p.model ?? null, segments, at, key: segments[at].key! };
}

/** What a path asks for under one pattern: an entry of a site by slug, id or external id. */
export interface EntryCandidate {
  siteId: string;
  model: string | null;
  key: EntryKey;
  value: string;
}

/**
 * The path's segments as a site sees them: without query or fragment, without a trailing slash,
 * percent-decoded (a segment that does not decode stays as it came).
 */
export function pathSegments(path: string): string[] {
  let end = path.length;
  for (const c of ['?', '#']) {
    const i = path.indexOf(c);
    if (i !== -1 && i < end) end = i;
  }
  let p = path.slice(0, end);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (!p.startsWith('/')) return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** Every pattern's reading of the path, in the patterns' order. */
export function candidatesOf(patterns: readonly CompiledPattern[], segments: readonly string[]): EntryCandidate[] {
  const out: EntryCandidate[] = [];
  for (const p of patterns) {
    if (p.segments.length !== segments.length) continue;
    let matches = true;
    for (let i = 0; i < segments.length && matches; i++) {
      const s = p.segments[i];
      matches = s.literal === null ? segments[i] !== '' : s.literal === segments[i];
    }
    if (matches) out.push({ siteId: p.siteId, model: p.model, key: p.key, value: segments[p.at] });
  }
  return out;
}
