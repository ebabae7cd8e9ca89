import type { Config } from '../../config.js';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import type { AnalyticsStore } from './analytics-store.js';

export * from './analytics-store.js';

type AnalyticsConfig = Pick<Config, 'clickhouseUrl' | 'clickhouseDatabase' | 'clickhouseRawTtlDays' | 'dataDir'>;

/**
 * Chooses the store from the configuration: `CLICKHOUSE_URL` set → ClickHouse server, otherwise
 * chDB in `<dataDir>/chdb`. Applies the ClickHouse migrations before returning. With
 * `background`, a ClickHouse server that cannot be reached (or is too old) does not fail the
 * start: the store connects in the background and answers 503 until then (see deferred.ts).
 */
export async function createAnalyticsStore(config: AnalyticsConfig, options: { logger?: Logger; background?: boolean } = {}): Promise<AnalyticsStore> {
  if (config.clickhouseUrl && options.background) {
    const { createDeferredAnalyticsStore } = await import('./deferred.js');
    return createDeferredAnalyticsStore('clickhouse', () => connectAnalyticsStore(config, options), options);
  }
  return connectAnalyticsStore(config, options);
}

async function connectAnalyticsStore(config: AnalyticsConfig, options: { logger?: Logger }): Promise<AnalyticsStore> {
  const { migrateClickHouse } = await import('./migrate.js');
  let store: AnalyticsStore;
  if (config.clickhouseUrl) {
    const { createClickHouseStore } = await import('./clickhouse.js');
    store = await createClickHouseStore({ url: config.clickhouseUrl, database: config.clickhouseDatabase });
  } else {
    const { createChdbStore } = await import('./chdb.js');
    store = await createChdbStore({ path: path.join(config.dataDir, 'chdb') });
  }
  try {
    const report = await migrateClickHouse(store, { rawTtlDays: config.clickhouseRawTtlDays });
    if (report.applied.length > 0) options.logger?.info({ applied: report.applied }, 'clickhouse migrations applied');
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
