import type { Config } from '../../config.js';
import type { Db, TransactionSettings } from './db.js';

export * from './db.js';

export async function createDb(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'>, options: { transactionSettings?: TransactionSettings; inMemory?: boolean } = {}): Promise<Db> {
  if (config.databaseUrl) {
    const { createPostgresDb } = await import('./postgres.js');
    return createPostgresDb({ url: config.databaseUrl, poolSize: config.databasePoolSize, transactionSettings: options.transactionSettings });
  }
  const { createPgliteDb } = await import('./pglite.js');
  return createPgliteDb({ dataDir: config.dataDir, inMemory: options.inMemory, transactionSettings: options.transactionSettings });
}
