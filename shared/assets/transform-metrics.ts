import { Counter, type Registry } from 'prom-client';

/** Transforms actually run (not joined, not skipped as already done), per process registry. */
const counters = new WeakMap<Registry, Counter<'format'>>();

export function transformCounter(registry: Registry): Counter<'format'> {
  let counter = counters.get(registry);
  if (!counter) {
    counter = new Counter({ name: 'folio_image_transforms_total', help: 'Image derivatives produced by sharp', labelNames: ['format'], registers: [registry] });
    counters.set(registry, counter);
  }
  return counter;
}

export async function transformCount(registry: Registry): Promise<number> {
  const values = (await transformCounter(registry).get()).values;
  return values.reduce((sum, v) => sum + v.value, 0);
}
