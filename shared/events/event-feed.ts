import type { Db } from '../adapters/db/index.js';

/**
 * Word that events have committed. The `events` table's trigger NOTIFYs `folio_events` at COMMIT;
 * this process LISTENs once (from the first subscriber on) and calls every subscriber, also once
 * when the listener is in place and after each reconnection, since a NOTIFY sent while it was away
 * is lost. A subscriber therefore looks at the table, never at the notification.
 */
export interface EventFeed {
  onCommitted(subscriber: () => void): void;
  close(): Promise<void>;
}

export const EVENTS_CHANNEL = 'folio_events';

export function createEventFeed(db: Db, onError: (err: unknown) => void): EventFeed {
  const subscribers: Array<() => void> = [];
  let stop: Promise<() => Promise<void>> | undefined;
  const notify = () => {
    for (const s of subscribers) s();
  };
  return {
    onCommitted(subscriber) {
      subscribers.push(subscriber);
      stop ??= db.listen(EVENTS_CHANNEL, notify).catch((err: unknown) => {
        onError(err);
        return async () => {};
      });
    },
    async close() {
      subscribers.length = 0;
      if (stop) await (await stop)();
    },
  };
}
