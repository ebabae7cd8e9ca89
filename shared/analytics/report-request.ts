import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { Queryable } from '../adapters/db/index.js';
import { campaignAnalytics } from './campaign-report.js';
import { changeOf, parseCompare } from './compare.js';
import { badRequest } from '../errors/index.js';
import type { DayVisitors } from './day-visitors.js';
import { entryAnalytics } from './entry-report.js';
import type { EntryTrafficReader } from './entry-traffic-reader.js';
import { filterSql, hasFilters, parseFilters, rollupsAnswer } from './filters.js';
import { imageAnalytics } from './image-report.js';
import { parseAnalyticsQuery, type AnalyticsRange } from './range.js';
import { REALTIME_MINUTES, botAnalytics, breakdown, distributionAnalytics, realtimeAnalytics, statusAnalytics, type ReportKind } from './reports.js';
import type { Scope } from './window-sql.js';

// One analytics request: its window, filters and comparison read from the query string, the
// report run over the window (and over the previous or a given period with `compare`).

export interface ReportDeps {
  store: AnalyticsStore;
  db: Queryable;
  dayVisitors: DayVisitors;
  entryTraffic: EntryTrafficReader;
}

/** Where a filtered report's figures came from: the rollups, or the raw lines. */
export type ReportSource = 'rollup' | 'raw';

/** The query parameters read before any database is: a bad one is a 400 naming it. */
export function parseReportQuery(query: Record<string, unknown>, now = Date.now()) {
  const range = parseAnalyticsQuery(query, now);
  return { range, filters: parseFilters(query), compare: parseCompare(query, range, now), now };
}

async function runOnce(deps: ReportDeps, kind: ReportKind, scope: Scope, range: AnalyticsRange, now: number): Promise<unknown> {
  switch (kind) {
    case 'overview':
      // remembered day visitors are of unfiltered days only
      return distributionAnalytics(deps.store, scope, range, scope.filter ? undefined : deps.dayVisitors);
    case 'status':
      return statusAnalytics(deps.store, scope, range);
    case 'bots':
      return botAnalytics(deps.store, scope, range);
    case 'realtime':
      return realtimeAnalytics(deps.store, scope, now);
    case 'assets':
      return imageAnalytics(deps.store, deps.db, scope, range);
    case 'entries':
      return entryAnalytics(deps.store, deps.db, deps.entryTraffic, scope, range);
    case 'campaigns':
      return campaignAnalytics(deps.store, scope, range);
    default:
      return breakdown(deps.store, scope, range, kind);
  }
}

/** Whose lines, which window, and the filters as conditions on the raw lines (none where the rollups answer). */
export function scopeOf(who: { orgId: string; distributionId: string }, request: Pick<ReturnType<typeof parseReportQuery>, 'range' | 'filters'>): Scope {
  const { range, filters } = request;
  return {
    ...who,
    fromMs: range.fromMs,
    toMs: range.toMs,
    // bot=false alone is the rollups' humans-only reading
    excludeBots: range.excludeBots || filters.bot === false,
    filter: rollupsAnswer(filters) ? null : filterSql(filters),
  };
}

/**
 * The report as the specification shapes it; with filters or a comparison, `source` too, and
 * with `compare=previous`, `previous` (the same report over the period of the same length just
 * before; for real time, the 30 minutes before) and `change` (per figure); with
 * `compare=<from>/<to>`, the same over that period (not for real time, whose window is now's).
 */
export async function runReport(
  deps: ReportDeps,
  kind: ReportKind,
  who: { orgId: string; distributionId: string },
  request: ReturnType<typeof parseReportQuery>,
): Promise<unknown> {
  const { range, filters, compare, now } = request;
  const fromRollups = rollupsAnswer(filters);
  const scope = scopeOf(who, request);
  // campaigns are read from the raw lines, filtered or not
  const source: ReportSource = fromRollups && kind !== 'campaigns' ? 'rollup' : 'raw';
  if (!compare) {
    const result = await runOnce(deps, kind, scope, range, now);
    return hasFilters(filters) ? { ...(result as object), source } : result;
  }
  if (compare.kind === 'range') {
    if (kind === 'realtime') throw badRequest('compare: real time compares with the 30 minutes before only (compare=previous).');
    const other = { ...range, fromMs: compare.fromMs, toMs: compare.toMs };
    const [result, previous] = await Promise.all([
      runOnce(deps, kind, scope, range, now),
      runOnce(deps, kind, { ...scope, fromMs: other.fromMs, toMs: other.toMs }, other, now),
    ]);
    return { ...(result as object), source, previous, change: changeOf(result, previous) ?? {} };
  }
  const length = kind === 'realtime' ? REALTIME_MINUTES * 60_000 : range.toMs - range.fromMs;
  // a window starting at 1970-01-01 has no period before it
  if (kind !== 'realtime' && range.fromMs === 0) return { ...((await runOnce(deps, kind, scope, range, now)) as object), source, previous: null, change: null };
  // log times start at 1970: a previous period reaching before it is cut there
  const before = { ...range, fromMs: Math.max(0, range.fromMs - length), toMs: range.fromMs };
  const [result, previous] = await Promise.all([
    runOnce(deps, kind, scope, range, now),
    runOnce(deps, kind, { ...scope, fromMs: before.fromMs, toMs: before.toMs }, before, now - length),
  ]);
  return { ...(result as object), source, previous, change: changeOf(result, previous) ?? {} };
}
