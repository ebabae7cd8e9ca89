import { Redis } from 'ioredis';
import { createLocalBus } from './local.js';
import type { BusMessages, BusTopic, EventBus } from './event-bus.js';

/** Redis pub/sub fan-out; delivery to local handlers goes through the subscription only once. */
export async function createRedisBus(options: { url: string; channelPrefix: string }): Promise<EventBus> {
  const pub = new Redis(options.url, { maxRetriesPerRequest: 2, lazyConnect: true });
  const sub = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
  // Both reconnect on their own (the subscription is restored); a publish while Redis is away
  // rejects to its caller. Without a listener ioredis prints every failed attempt to stderr.
  for (const connection of [pub, sub]) connection.on('error', () => {});
  await Promise.all([pub.connect(), sub.connect()]);
  const local = createLocalBus();
  const prefix = options.channelPrefix;
  await sub.psubscribe(`${prefix}*`);
  sub.on('pmessage', (_pattern, channel, raw) => {
    const topic = channel.slice(prefix.length) as BusTopic;
    try {
      void local.publish(topic, JSON.parse(raw) as BusMessages[typeof topic]);
    } catch {
      // A message we cannot parse is not ours to act on.
    }
  });
  return {
    kind: 'redis',
    async publish<T extends BusTopic>(topic: T, message: BusMessages[T]) {
      await pub.publish(prefix + topic, JSON.stringify(message));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      sub.disconnect();
      pub.disconnect();
    },
  };
}
