import type { AnalyticsStore, QueryParams } from '../adapters/clickhouse/index.js';
import type { Goal } from './goal-repository.js';
import { pathPatternRegex } from './path-pattern.js';
import { HUMANS, windowSql, type Scope } from './window-sql.js';

// Goals: per goal, the requests whose path its pattern matches and the visitors who made one,
// with the conversion rate (those visitors over all the window's visitors, the same filters
// applied). No rollup keeps paths by visitor: the report reads the raw lines, in one pass.

export interface GoalFigures {
  id: string;
  name: string;
  path: string;
  visitors: number;
  requests: number;
  /** visitors / the window's visitors, to 4 decimals; 0 for a window without visitors. */
  conversionRate: number;
}

/** The raw lines of the window, with the scope's filter and bots' rule: the WHERE of goals and funnels. */
export function rawWhere(scope: Scope): { where: string; params: QueryParams } {
  // a filter of no condition makes the window one read of raw lines
  const w = windowSql({ ...scope, filter: scope.filter ?? { sql: '1', params: {} } }, { days: false });
  return { where: `${w.raw}${scope.excludeBots ? HUMANS : ''}`, params: w.params };
}

export const rate = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export async function goalAnalytics(store: AnalyticsStore, scope: Scope, goals: Goal[]): Promise<GoalFigures[]> {
  if (goals.length === 0) return [];
  const { where, params } = rawWhere(scope);
  // a visitor key of 0 is a line ingested before keys existed: no visitor
  const columns = goals.map((_, i) => {
    params[`g${i}`] = pathPatternRegex(goals[i].path);
    return `toInt64(countIf(match(path, {g${i}:String}))) AS r${i}, toInt64(uniqExactIf(visitor, visitor != 0 AND match(path, {g${i}:String}))) AS v${i}`;
  });
  const [row] = await store.query<Record<string, number>>(
    `SELECT toInt64(uniqExactIf(visitor, visitor != 0)) AS total, ${columns.join(', ')} FROM cdn_logs WHERE ${where}`,
    params,
  );
  const total = row?.total ?? 0;
  return goals.map((g, i) => {
    const visitors = row?.[`v${i}`] ?? 0;
    return { id: g.id, name: g.name, path: g.path, visitors, requests: row?.[`r${i}`] ?? 0, conversionRate: rate(visitors, total) };
  });
}
