import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import { isbotMatch } from 'isbot';
import { LRUCache } from 'lru-cache';
import maxmind, { type Reader, type Response } from 'maxmind';
import { isIP } from 'node:net';
import UAParser from 'ua-parser-js';
import { campaignOf } from './campaign.js';
import type { LogRecord } from './record.js';
import type { Agent, Enrichment, LogRow } from './log-row.js';
import { tsvLine } from './row-tsv.js';
import { utcDay } from './visitor-salts.js';

export type { Enrichment, LogRow } from './log-row.js';

/** What an organization keeps of a client IP in the raw log: all of it, its network part, or nothing. */
export type ClientIpMode = 'full' | 'truncated' | 'none';

/**
 * What the visitor key and the stored IP of one batch depend on. The key is a hash of the day's
 * secret salt, the full IP, the user agent and the distribution — the same visitor on one day and
 * distribution has one key, and once the salt is deleted no key leads back to an address.
 */
export interface VisitorScope {
  clientIps: ClientIpMode;
  /** The salt of the UTC day holding `timestampMs`. */
  saltFor(timestampMs: number): Buffer;
}

export interface Enricher {
  /**
   * Adds country (when the record has none), continent, device, browser, OS, bot, referer host
   * and — given a visitor scope — the visitor key, storing the IP as the scope says (without one:
   * the whole IP, no visitor key).
   */
  toRow(record: LogRecord, orgId: string, distributionId: string, visitors?: VisitorScope, entryId?: string): LogRow;
  /** The same row written straight as a TabSeparated line (no row object: the ingest hot path). */
  toTsv(record: LogRecord, orgId: string, distributionId: string, visitors?: VisitorScope, entryId?: string): string;
}

/**
 * The country database ships in `@ip-location-db/geo-whois-asn-country-mmdb` (data: NRO/RIR
 * WHOIS, CC BY 4.0 — attribution in the README, "GeoIP data"). Opened by each enricher, which
 * `Services` creates once per process.
 */
function openGeoReader(): Promise<Reader<Response>> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
  return maxmind.open<Response>(file, { watchForUpdates: false });
}

const continentOf = (country: string): string =>
  (countries as Record<string, { continent: string } | undefined>)[country]?.continent ?? 'XX';

const REFERER_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]+)/i;

export function refererHost(referer: string): string {
  const m = REFERER_HOST.exec(referer);
  return m ? m[1].toLowerCase() : '';
}

/**
 * The name a bot goes by: the product token of its agent holding what the isbot list matched
 * ("bingbot" for a match on "bot" in "bingbot/2.0"), without its version.
 */
export function botName(ua: string, match: string): string {
  const at = ua.indexOf(match);
  if (at === -1) return match;
  const isSeparator = (c: string) => c === ' ' || c === ';' || c === '(' || c === ')' || c === ',' || c === '+';
  let start = at;
  while (start > 0 && !isSeparator(ua[start - 1])) start--;
  let end = at + match.length;
  while (end < ua.length && !isSeparator(ua[end])) end++;
  const token = ua.slice(start, end);
  const name = token.includes('/') && token.indexOf('/') > 0 ? token.slice(0, token.indexOf('/')) : token;
  return name.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || match;
}

function parseAgent(ua: string): Agent {
  if (ua === '') return { device: 'unknown', browser: 'Other', os: 'Other', bot: '' };
  const r = new UAParser(ua).getResult();
  const browser = r.browser.name ?? 'Other';
  const os = r.os.name ?? 'Other';
  // ua-parser reports no device type for desktops; an agent it cannot read at all is "other"
  const device = r.device.type ?? (browser === 'Other' && os === 'Other' ? 'other' : 'desktop');
  const match = isbotMatch(ua);
  return { device, browser, os, bot: match ? botName(ua, match) : '' };
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad is two of them). */
function ipv6Groups(ip: string): number[] {
  const text = ip
    .replace(/%.*$/, '')
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
      `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
    );
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  if (tail === undefined) return groups(head);
  const h = groups(head);
  const t = groups(tail);
  return [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * The IP as an organization keeps it: whole, its network part (IPv4 — also mapped into IPv6 —
 * without the last octet, IPv6 without the last 80 bits — its first 48 kept) or nothing. Text that is no IP is not kept
 * in part.
 */
export function storedClientIp(ip: string, mode: ClientIpMode): string {
  if (mode === 'full' || ip === '') return ip;
  if (mode === 'none') return '';
  const kind = isIP(ip);
  // an IPv4 address, or one mapped into IPv6 (::ffff:192.0.2.1), loses its last octet
  if (kind === 4 || (kind === 6 && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip))) return ip.slice(0, ip.lastIndexOf('.')) + '.0';
  if (kind !== 6) return '';
  return `${ipv6Groups(ip)
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(':')}::`;
}

const KEYS_PER_SCOPE = 100_000;

/** The visitor keys one batch has worked out: by UTC day, distribution, user agent and IP. */
interface BatchKeys {
  count: number;
  byDay: Map<number, Map<string, Map<string, Map<string, string>>>>;
}

/** The map under `key` in `parent`, made when missing. */
function child<K, V>(parent: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let m = parent.get(key);
  if (m === undefined) parent.set(key, (m = new Map()));
  return m;
}

/** A visitor key: 64 bits of SHA-256 over salt, IP, agent and distribution (never 0, which means none). */
function visitorKey(salt: Buffer, ip: string, ua: string, distributionId: string): string {
  const key = createHash('sha256').update(salt).update(ip).update('\0').update(ua).update('\0').update(distributionId).digest().readBigUInt64BE(0);
  return key === 0n ? '1' : key.toString();
}

export async function createEnricher(options: { agentCacheSize?: number } = {}): Promise<Enricher> {
  const geo = await openGeoReader();
  // user agents repeat heavily in CDN traffic: each distinct one is parsed once
  const agents = new LRUCache<string, Agent>({ max: options.agentCacheSize ?? 10_000 });
  const agentOf = (ua: string): Agent => {
    let agent = agents.get(ua);
    if (!agent) {
      agent = parseAgent(ua);
      agents.set(ua, agent);
    }
    return agent;
  };
  const countryOf = (r: LogRecord): string => {
    let country = r.country;
    if (!country && r.clientIp) {
      try {
        // this database's records are `{ country_code }` only
        country = (geo.get(r.clientIp) as { country_code?: string } | null)?.country_code;
      } catch {
        // not an IP address: stays unknown
      }
    }
    return country && continentOf(country) !== 'XX' ? country : 'XX';
  };
  // a visitor's lines share one key: each scope (one batch) hashes a day, distribution, agent and
  // IP once (up to KEYS_PER_SCOPE of them; a batch of more distinct visitors hashes the rest line
  // by line). Nested maps rather than one joined key: a joined key is a string made per line.
  const keysOf = new WeakMap<VisitorScope, BatchKeys>();
  const visitorOf = (r: LogRecord, distributionId: string, visitors: VisitorScope): string => {
    let batch = keysOf.get(visitors);
    if (!batch) keysOf.set(visitors, (batch = { count: 0, byDay: new Map() }));
    const byIp = child(child(child(batch.byDay, utcDay(r.timestampMs)), distributionId), r.userAgent);
    let key = byIp.get(r.clientIp);
    if (key === undefined) {
      key = visitorKey(visitors.saltFor(r.timestampMs), r.clientIp, r.userAgent, distributionId);
      if (batch.count < KEYS_PER_SCOPE) {
        byIp.set(r.clientIp, key);
        batch.count++;
      }
    }
    return key;
  };
  const enrich = (r: LogRecord, distributionId: string, visitors: VisitorScope | undefined, entryId: string): Enrichment => {
    const country = countryOf(r);
    return {
      clientIp: visitors ? storedClientIp(r.clientIp, visitors.clientIps) : r.clientIp,
      country,
      continent: continentOf(country),
      refererHost: refererHost(r.referer),
      agent: agentOf(r.userAgent),
      visitor: visitors ? visitorOf(r, distributionId, visitors) : '0',
      entryId,
      campaign: campaignOf(r.query),
    };
  };
  return {
    toRow(r, orgId, distributionId, visitors, entryId = '') {
      const e = enrich(r, distributionId, visitors, entryId);
      return {
        org_id: orgId,
        distribution_id: distributionId,
        timestamp: r.timestampMs,
        client_ip: e.clientIp,
        method: r.method,
        host: r.host,
        path: r.path,
        status: r.status,
        bytes: r.bytes,
        serve_time_ms: r.serveTimeMs,
        cache_status: r.cacheStatus,
        referer: r.referer,
        referer_host: e.refererHost,
        user_agent: r.userAgent,
        country: e.country,
        continent: e.continent,
        device: e.agent.device,
        browser: e.agent.browser,
        os: e.agent.os,
        is_bot: e.agent.bot === '' ? 0 : 1,
        bot_name: e.agent.bot,
        visitor: e.visitor,
        entry_id: e.entryId,
        utm_source: e.campaign.source,
        utm_medium: e.campaign.medium,
        utm_campaign: e.campaign.campaign,
        utm_term: e.campaign.term,
        utm_content: e.campaign.content,
      };
    },
    toTsv(r, orgId, distributionId, visitors, entryId = '') {
      return tsvLine(r, orgId, distributionId, enrich(r, distributionId, visitors, entryId));
    },
  };
}
