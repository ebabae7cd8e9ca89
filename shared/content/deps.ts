import type { EventBus } from '../adapters/bus/index.js';
import type { Db } from '../adapters/db/index.js';

/** What the content domain needs from `Services` (a structural subset, so tests can pass either). */
export interface ContentDeps {
  db: Db;
  bus: Pick<EventBus, 'publish'>;
}
