import type { Db } from '../adapters/db/index.js';
import { batchWhileBusy } from '../concurrency.js';
import {
  changesFailureCount,
  claimDeliveries,
  finishAttempts,
  recordAttempt,
  type AttemptRecord,
  type DeliveryKey,
  type DeliveryToSend,
  type NextDelivery,
} from './delivery-repository.js';

/**
 * The claims and outcomes of this process's webhook attempts. Attempts run many at a time, and
 * each needs a claim before and a record after: made one statement each, those two round trips
 * cost more than the POST itself. Here the claims (and the records) that arrive while one
 * statement runs go together in the next, so under load a few statements serve every attempt
 * in flight, and a lone attempt waits for nobody. One per process, made in Services.
 */
export interface DeliveryLedger {
  /** Claims the next attempt of a delivery (see claimDeliveries); null when this job has nothing to send. */
  claim(key: DeliveryKey): Promise<DeliveryToSend | null>;
  /** Records an attempt; returns the lane's next delivery once this one is final, and whether the webhook was disabled now. */
  record(d: DeliveryToSend, a: AttemptRecord): Promise<{ next: NextDelivery | null; disabled: boolean }>;
}

/**
 * Statements carry at most this many claims or records, and one of each kind runs at a time:
 * with two, a burst's statements carried fewer each, Postgres spent half as much CPU again on
 * them and the burst was delivered a fifth slower (measured with bench:webhooks).
 */
const BATCHES = { maxBatch: 200, parallel: 1 };

export function createDeliveryLedger(db: Db, options: { claimMs: number; disableAfter: number }): DeliveryLedger {
  const claim = batchWhileBusy((keys: DeliveryKey[]) => claimDeliveries(db, keys, options.claimMs), BATCHES);
  const finish = batchWhileBusy((attempts: { d: DeliveryToSend; a: AttemptRecord }[]) => finishAttempts(db, attempts), BATCHES);
  return {
    claim,
    async record(d, a) {
      if (changesFailureCount(d, a)) return recordAttempt(db, d, a, options.disableAfter);
      return { next: await finish({ d, a }), disabled: false };
    },
  };
}
