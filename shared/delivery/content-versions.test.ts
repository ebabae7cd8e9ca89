import { describe, expect, it } from 'vitest';
import type { Db, QueryResult } from '../adapters/db/index.js';
import { createContentVersions } from './content-versions.js';

/**
 * The listener's states, driven by hand: a lost LISTEN connection is a fault the integration
 * suites cannot cause without breaking the listeners of the other suites sharing the database.
 */
function scriptedDb() {
  let onNotify: (payload?: string) => void = () => {};
  let onLost: () => void = () => {};
  let stored = 1;
  const reads: Array<() => void> = [];
  let holdReads = false;
  const db = {
    async query<T>(): Promise<QueryResult<T>> {
      if (holdReads) await new Promise<void>((resolve) => reads.push(resolve));
      return { rows: [{ v: stored }] as T[], rowCount: 1 };
    },
    async listen(_channel: string, n: (payload?: string) => void, l?: () => void) {
      onNotify = n;
      onLost = l ?? (() => {});
      return async () => {};
    },
  } as unknown as Db;
  return {
    db,
    inPlace: () => onNotify(),
    bump: (orgId: string, v: number) => {
      stored = v;
      onNotify(`${orgId}:${v}`);
    },
    /** A payload as it comes, well formed or not. */
    raw: (payload: string) => onNotify(payload),
    /** A write the listener did not hear (sent while it was away). */
    unheard: (v: number) => void (stored = v),
    lost: () => onLost(),
    hold: () => void (holdReads = true),
    release: () => {
      holdReads = false;
      for (const r of reads.splice(0)) r();
    },
  };
}

describe('content versions in memory', () => {
  it('reads from Postgres until the listener is in place, then keeps what it reads and hears', async () => {
    const s = scriptedDb();
    const versions = createContentVersions(s.db, () => {});
    expect(await versions.read('org1')).toBe(1);
    expect(versions.known('org1')).toBeUndefined(); // read before the listener was in place
    s.inPlace();
    expect(await versions.read('org1')).toBe(1);
    expect(versions.known('org1')).toBe(1);
    s.bump('org1', 2);
    expect(versions.known('org1')).toBe(2);
    s.bump('org1', 2); // the echo and the server's delivery of one bump
    expect(versions.known('org1')).toBe(2);
    expect(versions.known('org2')).toBeUndefined();
  });

  it('forgets everything when the listener is lost, and trusts reads again only once it is back', async () => {
    const s = scriptedDb();
    const versions = createContentVersions(s.db, () => {});
    await versions.read('other'); // the first read starts the listener
    s.inPlace();
    await versions.read('org1');
    s.lost();
    expect(versions.known('org1')).toBeUndefined();
    s.unheard(5);
    expect(await versions.read('org1')).toBe(5);
    expect(versions.known('org1')).toBeUndefined();
    s.inPlace();
    expect(versions.known('org1')).toBeUndefined();
    expect(await versions.read('org1')).toBe(5);
    expect(versions.known('org1')).toBe(5);
  });

  it('does not keep a read that spanned a reconnection', async () => {
    const s = scriptedDb();
    const versions = createContentVersions(s.db, () => {});
    await versions.read('other'); // the first read starts the listener
    s.inPlace();
    s.hold();
    const reading = versions.read('org1');
    s.lost();
    s.inPlace(); // a bump may have committed, unheard, between the two
    s.release();
    expect(await reading).toBe(1);
    expect(versions.known('org1')).toBeUndefined();
  });

  it('a bump heard while a read is in flight wins over the older answer', async () => {
    const s = scriptedDb();
    const versions = createContentVersions(s.db, () => {});
    await versions.read('other'); // the first read starts the listener
    s.inPlace();
    s.hold();
    const reading = versions.read('org1'); // answers 1, from before the bump
    s.bump('org1', 7);
    s.unheard(1);
    s.release();
    expect(await reading).toBe(7);
    expect(versions.known('org1')).toBe(7);
  });

  it('ignores payloads that are not <org>:<version>', async () => {
    const s = scriptedDb();
    const versions = createContentVersions(s.db, () => {});
    await versions.read('other'); // the first read starts the listener
    s.inPlace();
    s.bump('org1', 3);
    for (const bad of ['', 'org1', ':4', 'org1:x', 'org1:1e400', 'org1:99.5']) s.raw(bad);
    expect(versions.known('org1')).toBe(3);
    expect(versions.known('')).toBeUndefined();
    s.raw('org1:4');
    expect(versions.known('org1')).toBe(4);
  });
});
