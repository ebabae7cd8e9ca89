import type { Db } from '../adapters/db/index.js';
import { CONTENT_VERSIONS_CHANNEL, findContentVersion } from '../tenancy/organization-repository.js';

/**
 * Organizations' content versions as this process knows them, which key the response cache.
 *
 * Reading the version from Postgres before every cached answer was one round trip per request,
 * most of a cached answer's cost. A trigger announces every bump at COMMIT (channel
 * `folio_content_versions`, '<org id>:<version>'), and the writing process hears its own bumps as
 * its transaction commits, so while this process listens, a version it read once stays current
 * in memory. Without a listener (not yet in place, or its connection lost) every read goes to
 * Postgres, as before; and a version read while no listener was in place is not kept, since a
 * bump committed before the listener was back would go unheard.
 *
 * Other processes learn of a write when Postgres delivers its notification (well under a
 * millisecond after the commit here); the process that wrote knows before its write returns.
 */
export interface ContentVersions {
  /** The version in memory: current while the listener is in place; undefined when not known. */
  known(orgId: string): number | undefined;
  /** The version read from Postgres (null: no such organization), kept when it can be trusted. */
  read(orgId: string): Promise<number | null>;
  /** Reads answered from memory and from Postgres (tests and benches count them). */
  readonly stats: { fromMemory: number; fromDb: number };
  close(): Promise<void>;
}

export function createContentVersions(db: Db, onError: (err: unknown) => void): ContentVersions {
  const versions = new Map<string, number>();
  /** Counts the times the listener came (back) into place; a read keeps its answer only within one. */
  let epoch = 0;
  let listening = false;
  let stop: Promise<() => Promise<void>> | undefined;
  const stats = { fromMemory: 0, fromDb: 0 };

  const raise = (orgId: string, v: number) => {
    const had = versions.get(orgId);
    if (had === undefined || v > had) versions.set(orgId, v);
  };
  const onNotify = (payload?: string) => {
    if (payload === undefined) {
      // in place, first or again: what was announced while it was away is lost
      versions.clear();
      epoch++;
      listening = true;
      return;
    }
    const colon = payload.lastIndexOf(':');
    const v = Number(payload.slice(colon + 1));
    if (colon > 0 && Number.isSafeInteger(v)) raise(payload.slice(0, colon), v);
  };
  const onLost = () => {
    listening = false;
    versions.clear();
  };
  // listening starts with the first read: a process that serves no cached answer holds no connection for it
  const listen = () =>
    (stop ??= db.listen(CONTENT_VERSIONS_CHANNEL, onNotify, onLost).catch((err: unknown) => {
      onError(err);
      return async () => {};
    }));

  return {
    stats,
    known(orgId) {
      if (!listening) return undefined;
      const v = versions.get(orgId);
      if (v !== undefined) stats.fromMemory++;
      return v;
    },
    async read(orgId) {
      void listen();
      stats.fromDb++;
      const trusted = listening ? epoch : -1;
      const v = await findContentVersion(db, orgId);
      if (v === null) return null;
      if (listening && trusted === epoch) {
        raise(orgId, v);
        // a bump heard while reading is newer than what was read
        return versions.get(orgId) ?? v;
      }
      return v;
    },
    async close() {
      if (stop) await (await stop)();
      listening = false;
      versions.clear();
    },
  };
}
