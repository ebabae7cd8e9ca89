import { describe, expect, it } from 'vitest';
import { randomBase62 } from '../../ids.js';
import { createLocalBus } from './local.js';
import { createRedisBus } from './redis.js';
import type { EventBus } from './event-bus.js';

const targets: Array<[string, () => Promise<EventBus[]>]> = [
  ['local', async () => { const b = createLocalBus(); return [b, b]; }],
];
if (process.env.REDIS_URL) {
  targets.push([
    'redis',
    async () => {
      const prefix = `folio:test-${randomBase62(8)}:`;
      // two instances of a deployment: a message published on one reaches the other
      return Promise.all([createRedisBus({ url: process.env.REDIS_URL!, channelPrefix: prefix }), createRedisBus({ url: process.env.REDIS_URL!, channelPrefix: prefix })]);
    },
  ]);
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe.each(targets)('EventBus contract: %s', (_name, make) => {
  it('delivers a message to subscribers of the topic on every instance, once each, and unsubscribes', async () => {
    const [a, b] = await make();
    try {
      const onA: unknown[] = [];
      const onB: unknown[] = [];
      const other: unknown[] = [];
      const offA = a.subscribe('schema-changed', (m) => onA.push(m));
      b.subscribe('schema-changed', (m) => onB.push(m));
      b.subscribe('token-revoked', (m) => other.push(m));
      await a.publish('schema-changed', { orgId: 'o1', schemaVersion: 2 });
      await waitFor(() => onA.length >= 1 && onB.length >= 1);
      expect(onB).toEqual([{ orgId: 'o1', schemaVersion: 2 }]);
      expect(onA).toEqual([{ orgId: 'o1', schemaVersion: 2 }]);
      expect(other).toEqual([]);
      offA();
      await a.publish('schema-changed', { orgId: 'o1', schemaVersion: 3 });
      await waitFor(() => onB.length >= 2);
      expect(onA).toHaveLength(1);
      expect(onB).toHaveLength(2);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });
});
