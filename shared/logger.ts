import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, on stdout unless `destination` is given (tests read lines back); every
 * request line carries the request id (see api/http/access-log.ts). Stdout is written by
 * `batchedDestination`.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'folio' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  };
  return pino(options, destination ?? batchedDestination(pino.destination({ dest: 1, sync: true })));
}

/** A stream written synchronously (sonic-boom retries a full pipe), as `batchedDestination` needs. */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * The lines of one turn of the event loop, written to `sink` together once the turn is done (and
 * at exit): a write per line was a system call on every request's path, about a tenth of a
 * GraphQL answer's CPU at the default level (measured), while a busy turn answers several
 * requests. Lines keep their order and leave before the loop waits for anything new.
 */
export function batchedDestination(sink: LineSink): DestinationStream & { flush(cb?: () => void): void; flushSync(): void; stats: { writes: number } } {
  let pending = '';
  let scheduled = false;
  const stats = { writes: 0 };
  const flushSync = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    stats.writes++;
    sink.write(text);
  };
  process.once('exit', flushSync);
  return {
    write(line: string) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushSync);
      }
    },
    // pino's logger.flush()
    flush(cb) {
      flushSync();
      cb?.();
    },
    flushSync,
    stats,
  };
}
