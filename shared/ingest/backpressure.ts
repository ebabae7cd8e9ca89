import type { Db } from '../adapters/db/index.js';
import { serviceUnavailable } from '../errors/index.js';
import { countPendingBatches } from './spool-repository.js';

/**
 * Refuses new batches of an organization while the spool holds `maxPending` of its batches not
 * yet in ClickHouse (ClickHouse down or slower than the shippers). Shippers retry a 503 with
 * Retry-After, so the data waits at the source instead of filling our disks; counting per
 * organization keeps one tenant's flood from stopping the others. The count is re-read at most
 * once a second per organization and process.
 */
export function createBackpressure(options: { maxPending: number; retryAfterSeconds?: number }) {
  const counts = new Map<string, { at: number; pending: number }>();
  return {
    async check(db: Db, orgId: string): Promise<void> {
      const now = Date.now();
      let cached = counts.get(orgId);
      if (!cached || now - cached.at > 1000) {
        cached = { at: now, pending: await countPendingBatches(db, orgId) };
        counts.set(orgId, cached);
        // forget idle organizations so the map stays small
        if (counts.size > 10_000) counts.clear();
      }
      if (cached.pending >= options.maxPending) {
        throw serviceUnavailable(
          `Ingestion is backlogged (${cached.pending} batches waiting); retry later.`,
          options.retryAfterSeconds ?? 10,
        );
      }
    },
    /** Counts a batch this process just spooled, so a burst is seen before the next re-read. */
    spooled(orgId: string): void {
      const cached = counts.get(orgId);
      if (cached) cached.pending++;
    },
  };
}
export type Backpressure = ReturnType<typeof createBackpressure>;
