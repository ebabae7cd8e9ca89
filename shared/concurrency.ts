/**
 * Turns a function of one item into one call for many: items given while no call runs go at the
 * end of the current microtask (those given in one synchronous burst together), and items given
 * while `parallel` calls run wait for one to end and go together in the next, up to `maxBatch`
 * per call. Under load, many callers share one round trip; idle, nobody waits for a timer. `run`
 * answers each item in the order given; when it throws, every caller of that call gets the error.
 */
export function batchWhileBusy<I, O>(run: (items: I[]) => Promise<O[]>, options: { maxBatch: number; parallel: number }): (item: I) => Promise<O> {
  const waiting: { item: I; resolve: (o: O) => void; reject: (err: unknown) => void }[] = [];
  let running = 0;
  let scheduled = false;

  const pump = (): void => {
    while (running < options.parallel && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatch);
      running++;
      run(batch.map((w) => w.item))
        .then(
          (out) => batch.forEach((w, i) => w.resolve(out[i])),
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (scheduled) return;
      // the call starts at the end of this microtask, taking whatever was given until then
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        pump();
      });
    });
}

/** At most `limit` of the functions given run at once; the others wait their turn, first come first served. */
export function concurrencyLimit(limit: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (f) => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await f();
    } finally {
      const wake = queue.shift();
      if (wake) wake();
      else active--;
    }
  };
}
