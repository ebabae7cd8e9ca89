import type { Queryable } from '../adapters/db/index.js';
import { ORG_NAMES } from './organization-repository.js';

/** How often the counts noted are written, in one statement for every organization. */
const FLUSH_EVERY_MS = 10_000;

export type UsageKind = 'requests' | 'imageTransforms';

/**
 * Counts admitted requests and image transforms per organization without a write per request:
 * `count` adds in memory, and the sums are added to `organization_usage` every few seconds as one
 * upsert (and at `close`), the way token-usage.ts records when tokens were last used. A crash
 * loses at most the last few seconds of counts: usage at a glance, not billing.
 */
export interface UsageMeter {
  count(orgId: string, kind: UsageKind): void;
  /** Writes what is counted now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The first day of `at`'s month in UTC, as a date literal. */
export const monthOf = (at: Date): string => `${at.toISOString().slice(0, 7)}-01`;

export function createUsageMeter(db: Queryable, onError: (err: unknown) => void): UsageMeter {
  let pending = new Map<string, { requests: number; imageTransforms: number }>();
  let running: Promise<void> = Promise.resolve();

  const write = async (batch: typeof pending, month: string) => {
    if (batch.size === 0) return;
    const ids = [...batch.keys()];
    await db.query(
      `INSERT INTO organization_usage AS u (org_id, month, requests, image_transforms)
       SELECT c.org_id, $1::date, c.requests, c.transforms
       FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS c(org_id, requests, transforms)
       -- an organization deleted meanwhile has no row to count against
       WHERE EXISTS (SELECT 1 FROM ${ORG_NAMES} o WHERE o.id = c.org_id)
       ON CONFLICT (org_id, month) DO UPDATE
         SET requests = u.requests + EXCLUDED.requests, image_transforms = u.image_transforms + EXCLUDED.image_transforms`,
      [month, ids, ids.map((id) => batch.get(id)!.requests), ids.map((id) => batch.get(id)!.imageTransforms)],
      { background: true },
    );
  };
  const flush = () => {
    const batch = pending;
    pending = new Map();
    const month = monthOf(new Date());
    running = running.then(() => write(batch, month)).catch(onError);
    return running;
  };
  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  return {
    count(orgId, kind) {
      let counts = pending.get(orgId);
      if (!counts) pending.set(orgId, (counts = { requests: 0, imageTransforms: 0 }));
      counts[kind] += 1;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
