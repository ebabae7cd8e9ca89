import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout; every request line carries the request id (see api/http). */
export function createLogger(level = 'info'): Logger {
  return pino({
    level,
    base: { service: 'folio' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  });
}
