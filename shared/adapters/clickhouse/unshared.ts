import { serviceUnavailable } from '../../errors/index.js';
import type { AnalyticsStore } from './analytics-store.js';

/** Why analytics cannot answer in an API process split from its workers without CLICKHOUSE_URL. */
export const UNSHARED_ANALYTICS_REASON =
  'Analytics is unavailable: the API and workers run as separate processes without CLICKHOUSE_URL, so the log lines are in the workers\' embedded engines, which this process cannot read. Set CLICKHOUSE_URL to a ClickHouse server every process shares.';

/**
 * The analytics store of an API process whose jobs run in `workers/main` processes while no
 * ClickHouse server is shared: chDB is one process's engine, so the workers insert log lines into
 * their own and an engine of this process would hold none — every report would read zeros with
 * `success: true`. Instead every call fails with the catalogue's 503 naming the fix, and
 * `/readyz` reports analytics down.
 */
export function createUnsharedAnalyticsStore(): AnalyticsStore {
  const refuse = () => Promise.reject(serviceUnavailable(UNSHARED_ANALYTICS_REASON, 60));
  return {
    kind: 'none',
    query: refuse,
    command: refuse,
    insertJsonEachRow: refuse,
    ping: refuse,
    close: () => Promise.resolve(),
  };
}
