import type { QueryParams } from '../adapters/clickhouse/index.js';
import { badRequest } from '../errors/index.js';
import { checkPathPattern, pathPatternRegex } from './path-pattern.js';

// The filters every analytics report takes from its query string, validated here and turned into
// conditions on `cdn_logs` columns whose values are bound parameters (never SQL text).

/** The filters of one report; absent ones do not narrow it. */
export interface ReportFilters {
  country?: string;
  continent?: string;
  device?: string;
  browser?: string;
  os?: string;
  path?: string;
  pathPrefix?: string;
  /** A path pattern (`*` within a segment, `**` across; see path-pattern.ts). */
  pathPattern?: string;
  referrer?: string;
  /** A status class (`5xx`) or one code (`404`). */
  status?: string;
  cacheStatus?: string;
  /** true: bots only; false: humans only. */
  bot?: boolean;
  entry?: string;
  asset?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

/** The query parameters read as filters, in the order the conditions are written. */
export const FILTER_PARAMETERS = [
  'country', 'continent', 'device', 'browser', 'os', 'path', 'pathPrefix', 'pathPattern', 'referrer', 'status', 'cacheStatus', 'bot', 'entry', 'asset',
  'utmSource', 'utmMedium', 'utmCampaign',
] as const satisfies ReadonlyArray<keyof ReportFilters>;

const CONTINENTS = new Set(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'XX']);
/** Free-text values (browser, OS, device, UTM values): printable, no control characters. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const TEXT = /^[^\u0000-\u001f\u007f]{1,200}$/;

type Check = (value: string, name: string) => string | boolean;

const text: Check = (v, name) => {
  if (!TEXT.test(v)) throw badRequest(`${name}: must be 1 to 200 printable characters.`);
  return v;
};
const urlPath: Check = (v, name) => {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (!v.startsWith('/') || v.length > 2048 || /[\u0000-\u001f\u007f?#]/.test(v)) {
    throw badRequest(`${name}: must be a path starting with / (at most 2,048 characters, without query string or fragment).`);
  }
  return v;
};
const id: Check = (v, name) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(v)) throw badRequest(`${name}: must be an id (letters, digits, - and _).`);
  return v;
};

const CHECKS: Record<(typeof FILTER_PARAMETERS)[number], Check> = {
  country: (v, name) => {
    const c = v.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(c)) throw badRequest(`${name}: must be a two-letter country code (ISO 3166-1), e.g. DE.`);
    return c;
  },
  continent: (v, name) => {
    const c = v.trim().toUpperCase();
    if (!CONTINENTS.has(c)) throw badRequest(`${name}: must be one of ${[...CONTINENTS].join(', ')}.`);
    return c;
  },
  device: text,
  browser: text,
  os: text,
  path: urlPath,
  pathPrefix: urlPath,
  pathPattern: checkPathPattern,
  referrer: (v, name) => {
    const host = v.trim().toLowerCase();
    if (!/^[a-z0-9]([a-z0-9.-]{0,252})$/.test(host)) throw badRequest(`${name}: must be a host name, e.g. news.ycombinator.com.`);
    return host;
  },
  status: (v, name) => {
    const s = v.trim().toLowerCase();
    if (!/^[1-5](xx|\d\d)$/.test(s)) throw badRequest(`${name}: must be a status class (1xx … 5xx) or a status code from 100 to 599.`);
    return s;
  },
  cacheStatus: (v, name) => {
    const s = v.trim().toUpperCase();
    if (!/^[A-Z_-]{1,32}$/.test(s)) throw badRequest(`${name}: must be a cache status such as HIT or MISS.`);
    return s;
  },
  bot: (v, name) => {
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw badRequest(`${name}: must be true or false.`);
  },
  entry: id,
  asset: id,
  utmSource: text,
  utmMedium: text,
  utmCampaign: text,
};

/** Reads and validates the filter parameters; a bad or repeated one is a 400 naming it. */
export function parseFilters(query: Record<string, unknown>): ReportFilters {
  const out: Record<string, string | boolean> = {};
  for (const name of FILTER_PARAMETERS) {
    const v = query[name];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw badRequest(`${name}: give the parameter once.`);
    out[name] = CHECKS[name](v, name);
  }
  return out as ReportFilters;
}

export const hasFilters = (f: ReportFilters): boolean => Object.keys(f).length > 0;

/**
 * Whether the rollups can answer: they keep no dimension but bots, so only `bot=false` (the
 * humans' rows, as `excludeBots=true`) is answered from them; any other filter reads raw lines.
 */
export const rollupsAnswer = (f: ReportFilters): boolean => Object.keys(f).every((k) => k === 'bot' && f.bot === false);

/** The same reading of an image derivative path's asset as image-queries.ts'. */
const ASSET_OF_PATH = "(startsWith(path, '/img/') AND splitByChar('/', path)[5] = {f_asset:String})";

/** Conditions on `cdn_logs` columns (joined with AND, each value a bound `f_…` parameter). */
export function filterSql(f: ReportFilters): { sql: string; params: QueryParams } | null {
  const conds: string[] = [];
  const params: QueryParams = {};
  const eq = (column: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    conds.push(`${column} = {f_${name}:String}`);
    params[`f_${name}`] = value;
  };
  eq('country', 'country', f.country);
  eq('continent', 'continent', f.continent);
  eq('device', 'device', f.device);
  eq('browser', 'browser', f.browser);
  eq('os', 'os', f.os);
  eq('path', 'path', f.path);
  if (f.pathPrefix !== undefined) {
    conds.push('startsWith(path, {f_pathPrefix:String})');
    params.f_pathPrefix = f.pathPrefix;
  }
  if (f.pathPattern !== undefined) {
    conds.push('match(path, {f_pathPattern:String})');
    params.f_pathPattern = pathPatternRegex(f.pathPattern);
  }
  eq('referer_host', 'referrer', f.referrer);
  if (f.status !== undefined) {
    if (f.status.endsWith('xx')) {
      conds.push('intDiv(status, 100) = {f_status:UInt16}');
      params.f_status = Number(f.status[0]);
    } else {
      conds.push('status = {f_status:UInt16}');
      params.f_status = Number(f.status);
    }
  }
  eq('cache_status', 'cacheStatus', f.cacheStatus);
  if (f.bot !== undefined) conds.push(f.bot ? 'is_bot = 1' : 'is_bot = 0');
  eq('entry_id', 'entry', f.entry);
  if (f.asset !== undefined) {
    conds.push(ASSET_OF_PATH);
    params.f_asset = f.asset;
  }
  eq('utm_source', 'utmSource', f.utmSource);
  eq('utm_medium', 'utmMedium', f.utmMedium);
  eq('utm_campaign', 'utmCampaign', f.utmCampaign);
  return conds.length === 0 ? null : { sql: conds.join(' AND '), params };
}
