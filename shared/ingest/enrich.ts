import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import { LRUCache } from 'lru-cache';
import maxmind, { type Reader, type Response } from 'maxmind';
import UAParser from 'ua-parser-js';
import type { LogRecord } from './record.js';
import { tsvLine } from './row-tsv.js';

/** A row of `cdn_logs` as inserted (JSONEachRow; column names of the table). */
export interface LogRow {
  org_id: string;
  distribution_id: string;
  timestamp: number;
  client_ip: string;
  method: string;
  host: string;
  path: string;
  status: number;
  bytes: number;
  serve_time_ms: number;
  cache_status: string;
  referer: string;
  referer_host: string;
  user_agent: string;
  country: string;
  continent: string;
  device: string;
  browser: string;
  os: string;
}

interface Agent {
  device: string;
  browser: string;
  os: string;
}

export interface Enricher {
  /** Adds country (when the record has none), continent, device, browser, OS and referer host. */
  toRow(record: LogRecord, orgId: string, distributionId: string): LogRow;
  /** The same row written straight as a TabSeparated line (no row object: the ingest hot path). */
  toTsv(record: LogRecord, orgId: string, distributionId: string): string;
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

function parseAgent(ua: string): Agent {
  if (ua === '') return { device: 'unknown', browser: 'Other', os: 'Other' };
  const r = new UAParser(ua).getResult();
  const browser = r.browser.name ?? 'Other';
  const os = r.os.name ?? 'Other';
  // ua-parser reports no device type for desktops; an agent it cannot read at all is "other"
  const device = r.device.type ?? (browser === 'Other' && os === 'Other' ? 'other' : 'desktop');
  return { device, browser, os };
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
  return {
    toRow(r, orgId, distributionId) {
      const agent = agentOf(r.userAgent);
      const country = countryOf(r);
      return {
        org_id: orgId,
        distribution_id: distributionId,
        timestamp: r.timestampMs,
        client_ip: r.clientIp,
        method: r.method,
        host: r.host,
        path: r.path,
        status: r.status,
        bytes: r.bytes,
        serve_time_ms: r.serveTimeMs,
        cache_status: r.cacheStatus,
        referer: r.referer,
        referer_host: refererHost(r.referer),
        user_agent: r.userAgent,
        country,
        continent: continentOf(country),
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
      };
    },
    toTsv(r, orgId, distributionId) {
      const agent = agentOf(r.userAgent);
      const country = countryOf(r);
      return tsvLine(r, orgId, distributionId, country, continentOf(country), refererHost(r.referer), agent);
    },
  };
}
