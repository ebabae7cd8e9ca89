import { LRUCache } from 'lru-cache';
import type { Queryable } from '../adapters/db/index.js';
import type { EventFeed } from '../events/event-feed.js';

/** One entry of an organization changed (saved, published, deleted, imported, …): a committed event said so. */
export interface EntryChange {
  orgId: string;
  entryId: string;
  model: string | null;
  type: string;
}

/** Live changes of entries, for GraphQL subscriptions. */
export interface LiveChanges {
  /**
   * The org's entry changes committed from now on that `wanted` takes, until the iterator is
   * returned (the subscription ended) — then its queue and, with the last one, the polling stop.
   */
  subscribe(orgId: string, wanted: (change: EntryChange) => boolean): Promise<AsyncIterableIterator<EntryChange>>;
  /** Subscriptions open on this instance. */
  readonly open: number;
  close(): void;
}

interface EventRow {
  id: string;
  org_id: string;
  type: string;
  subject: string;
  model: string | null;
  /** `entry.imported` only: the ids of the entries of the batch. */
  imported: string[] | null;
}

/** Ids read again below the cursor: an event whose id was taken before a later one's may commit after it. */
const LOOKBACK_IDS = 200;
/** A NOTIFY lost while the listener reconnects is caught by a look at this interval while anyone listens. */
const SAFETY_POLL_MS = 2000;
const QUEUE_LIMIT = 1000;

/**
 * Fed by the events Folio records: every entry write commits its events (the transactional
 * outbox webhooks are sent from), and the commit NOTIFYs `folio_events` through the event feed —
 * a Postgres notification every API instance hears, whichever instance or worker wrote (embedded:
 * the one process). Each instance with subscribers then reads the new events once for all of
 * them, so a change reaches every instance's subscribers without a message of its own.
 */
export function createLiveChanges(deps: { db: Queryable; eventFeed: EventFeed; onError: (err: unknown) => void }): LiveChanges {
  const byOrg = new Map<string, Set<Subscriber>>();
  let open = 0;
  let cursor: bigint | null = null;
  const seen = new LRUCache<string, true>({ max: 20_000 });
  let listening = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  let starting: Promise<void> | null = null;

  /**
   * Where reading starts: after the events committed so far, those of the look-back window
   * counted as seen (they happened before anyone here listened).
   */
  function ensureCursor(): Promise<void> {
    starting ??= (async () => {
      const { rows } = await deps.db.query<{ id: string }>(
        'SELECT id::text AS id FROM events WHERE id > (SELECT coalesce(max(id), 0) FROM events) - $1 ORDER BY id',
        [LOOKBACK_IDS],
      );
      for (const row of rows) seen.set(row.id, true);
      cursor = BigInt(rows.at(-1)?.id ?? '0');
    })().catch((err: unknown) => {
      starting = null;
      throw err;
    });
    return starting;
  }

  async function readNew(): Promise<void> {
    if (cursor === null) return;
    const from = cursor > BigInt(LOOKBACK_IDS) ? cursor - BigInt(LOOKBACK_IDS) : 0n;
    // every organization's events, so those of one that nobody here watches yet count as seen
    const { rows } = await deps.db.query<EventRow>(
      `SELECT id::text AS id, org_id, type, subject, model,
              CASE WHEN type = 'entry.imported' THEN ARRAY(SELECT x->>'id' FROM jsonb_array_elements(data->'entries') AS x) END AS imported
       FROM events WHERE id > $1 ORDER BY id LIMIT 5000`,
      [from.toString()],
    );
    // everyone left (and the state was reset) while the statement ran
    if (cursor === null || byOrg.size === 0) return;
    for (const row of rows) {
      const id = BigInt(row.id);
      if (id > cursor) cursor = id;
      if (seen.has(row.id)) continue;
      seen.set(row.id, true);
      if (!row.type.startsWith('entry.') || !byOrg.has(row.org_id)) continue;
      const ids = row.imported ?? (row.subject.startsWith('entry:') ? [row.subject.slice('entry:'.length)] : []);
      for (const entryId of ids) deliver({ orgId: row.org_id, entryId, model: row.model, type: row.type });
    }
  }

  function deliver(change: EntryChange): void {
    for (const s of byOrg.get(change.orgId) ?? []) if (s.wanted(change)) s.push(change);
  }

  /** One read at a time; a wake-up during a read asks for one more after it. */
  function wake(): void {
    if (open === 0) return;
    if (running) {
      again = true;
      return;
    }
    running = readNew()
      .catch(deps.onError)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  function start(): void {
    if (!listening) {
      listening = true;
      deps.eventFeed.onCommitted(wake);
    }
    timer ??= setInterval(wake, SAFETY_POLL_MS);
    timer.unref();
  }

  return {
    async subscribe(orgId, wanted) {
      await ensureCursor();
      const subscriber = new Subscriber(wanted, () => {
        const set = byOrg.get(orgId);
        set?.delete(subscriber);
        if (set?.size === 0) byOrg.delete(orgId);
        open--;
        if (open === 0) {
          // nobody listens: the next subscriber starts from the events committed by then
          if (timer) clearInterval(timer);
          timer = undefined;
          cursor = null;
          starting = null;
          seen.clear();
        }
      });
      let set = byOrg.get(orgId);
      if (!set) byOrg.set(orgId, (set = new Set()));
      set.add(subscriber);
      open++;
      start();
      return subscriber;
    },
    get open() {
      return open;
    },
    close() {
      for (const set of byOrg.values()) for (const s of set) void s.return();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** A queue of changes read as an async iterator; `return()` (the subscription ending) leaves it. */
class Subscriber implements AsyncIterableIterator<EntryChange> {
  private readonly queue: EntryChange[] = [];
  private waiting: ((r: IteratorResult<EntryChange>) => void) | null = null;
  private done = false;

  constructor(
    readonly wanted: (change: EntryChange) => boolean,
    private readonly leave: () => void,
  ) {}

  push(change: EntryChange): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: change, done: false });
      return;
    }
    // a reader that does not keep up loses the oldest: the entry is read anew on each change anyway
    if (this.queue.length >= QUEUE_LIMIT) this.queue.shift();
    this.queue.push(change);
  }

  next(): Promise<IteratorResult<EntryChange>> {
    const change = this.queue.shift();
    if (change) return Promise.resolve({ value: change, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<EntryChange>> {
    if (!this.done) {
      this.done = true;
      this.queue.length = 0;
      this.leave();
      const resolve = this.waiting;
      this.waiting = null;
      resolve?.({ value: undefined, done: true });
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<EntryChange> {
    return this;
  }
}

/**
 * `changes` for as long as `admitted` says yes, asked before each one is passed on: a change that
 * comes after the caller's token expired or was revoked ends the iterator (the stream completes)
 * instead of being answered.
 */
export function whileAdmitted(changes: AsyncIterableIterator<EntryChange>, admitted: () => Promise<boolean>): AsyncIterableIterator<EntryChange> {
  const ended = async (): Promise<IteratorResult<EntryChange>> => {
    await changes.return?.();
    return { value: undefined, done: true };
  };
  const iterator: AsyncIterableIterator<EntryChange> = {
    async next() {
      const step = await changes.next();
      if (step.done) return step;
      return (await admitted()) ? step : ended();
    },
    return: ended,
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
