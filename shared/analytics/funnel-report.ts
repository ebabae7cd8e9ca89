import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { Funnel } from './goal-repository.js';
import { rate, rawWhere } from './goal-report.js';
import { pathPatternRegex } from './path-pattern.js';
import type { Scope } from './window-sql.js';

// A funnel: the visitors who passed each step in order. A visitor key is one UTC day's (see the
// privacy section of the README), so "in order within a day" is "in order within one key"; the
// steps are matched by ClickHouse's windowFunnel over each key's lines that match any step.

export interface FunnelStep {
  path: string;
  /** Visitors who reached this step after every earlier one, in order. */
  visitors: number;
  /** Visitors of the step before who did not reach this one (0 for the first). */
  dropOff: number;
  /** dropOff / the step before's visitors, to 4 decimals (0 for the first). */
  dropOffRate: number;
}

export interface FunnelFigures {
  id: string;
  name: string;
  steps: FunnelStep[];
  /** The last step's visitors over the first's. */
  conversionRate: number;
}

/** Longer than any key's lines: a key never spans two UTC days. */
const DAY_MS = 86_400_000;

export async function funnelAnalytics(store: AnalyticsStore, scope: Scope, funnel: Funnel): Promise<FunnelFigures> {
  const { where, params } = rawWhere(scope);
  const conds = funnel.steps.map((step, i) => {
    params[`s${i}`] = pathPatternRegex(step);
    return `match(path, {s${i}:String})`;
  });
  const rows = await store.query<{ level: number; n: number }>(
    `SELECT toInt64(level) AS level, toInt64(count()) AS n FROM (
       SELECT visitor, windowFunnel(${DAY_MS})(toUInt64(toUnixTimestamp64Milli(timestamp)), ${conds.join(', ')}) AS level
       FROM cdn_logs WHERE ${where} AND visitor != 0 AND (${conds.join(' OR ')}) GROUP BY visitor
     ) WHERE level > 0 GROUP BY level`,
    params,
  );
  const reached = funnel.steps.map((_, i) => rows.filter((r) => r.level > i).reduce((s, r) => s + r.n, 0));
  const steps = funnel.steps.map((path, i) => {
    const dropOff = i === 0 ? 0 : reached[i - 1] - reached[i];
    return { path, visitors: reached[i], dropOff, dropOffRate: i === 0 ? 0 : rate(dropOff, reached[i - 1]) };
  });
  return { id: funnel.id, name: funnel.name, steps, conversionRate: rate(reached[reached.length - 1], reached[0]) };
}
