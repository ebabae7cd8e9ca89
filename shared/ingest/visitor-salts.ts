import { randomBytes } from 'node:crypto';
import type { Queryable } from '../adapters/db/index.js';

const DAY_MS = 86_400_000;
/** The UTC day holding an instant, as a day number: each day has its own salt. */
export const utcDay = (timestampMs: number): number => Math.floor(timestampMs / DAY_MS);
/** A salt is deleted this long after it was made: no visitor key leads back to an IP after it. */
export const SALT_KEEP_MS = 2 * DAY_MS;
/** How long this process uses a salt it read before asking again (never past its deletion). */
const REMEMBER_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The secret salts of visitor keys, one per UTC day, shared by every process through Postgres (the
 * first to need a day's salt makes it) and remembered here for a while. One per process, made in
 * Services.
 */
export interface VisitorSalts {
  /** Makes sure the salts of the days holding `timestamps` exist; returns the salt of an instant of them. */
  forInstants(timestamps: Iterable<number>): Promise<(timestampMs: number) => Buffer>;
}

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export function createVisitorSalts(db: Queryable): VisitorSalts {
  const remembered = new Map<number, { salt: Buffer; until: number }>();
  let prunedAt = 0;
  return {
    async forInstants(timestamps) {
      const now = Date.now();
      const days = new Set<number>();
      for (const ms of timestamps) days.add(utcDay(ms));
      const missing = [...days].filter((d) => (remembered.get(d)?.until ?? 0) <= now);
      if (missing.length > 0) {
        for (const [day, r] of remembered) if (r.until <= now) remembered.delete(day);
        if (now - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = now;
          await db.query(`DELETE FROM visitor_salts WHERE created_at < now() - make_interval(secs => $1::double precision / 1000)`, [SALT_KEEP_MS]);
        }
        await db.query('INSERT INTO visitor_salts (day, salt) SELECT * FROM unnest($1::date[], $2::bytea[]) ON CONFLICT (day) DO NOTHING', [
          missing.map(dayText),
          missing.map(() => randomBytes(32)),
        ]);
        const { rows } = await db.query<{ day: string; salt: Buffer; created_ms: number }>(
          `SELECT day::text AS day, salt, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms FROM visitor_salts WHERE day = ANY($1::date[])`,
          [missing.map(dayText)],
        );
        for (const r of rows) {
          remembered.set(utcDay(Date.parse(`${r.day}T00:00:00Z`)), { salt: Buffer.from(r.salt), until: Math.min(now + REMEMBER_MS, r.created_ms + SALT_KEEP_MS) });
        }
      }
      const salts = new Map([...days].map((d) => [d, remembered.get(d)!.salt]));
      return (ms) => salts.get(utcDay(ms))!;
    },
  };
}
