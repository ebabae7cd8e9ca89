import { EventEmitter } from 'node:events';
import type { BusHandler, BusMessages, BusTopic, EventBus } from './event-bus.js';

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'local',
    async publish<T extends BusTopic>(topic: T, message: BusMessages[T]) {
      emitter.emit(topic, message);
    },
    subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>) {
      emitter.on(topic, handler);
      return () => emitter.off(topic, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
