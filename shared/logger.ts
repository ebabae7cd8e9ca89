import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, on stdout unless `destination` is given (tests read lines back); every
 * request line carries the request id (see api/http/access-log.ts).
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'folio' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
