import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, badRequest, isAppError, notFound, payloadTooLarge, unsupportedMediaType } from '../../shared/errors/index.js';
import { failure } from '../../shared/envelope.js';
import type { Logger } from '../../shared/logger.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

/** Errors raised by express.json / express.raw before a handler runs, in our catalogue. */
function fromBodyParser(err: BodyParserError): AppError | null {
  switch (err.type) {
    case 'entity.too.large':
      return payloadTooLarge(err.limit ?? 0);
    case 'entity.parse.failed':
      return badRequest('The request body is not valid JSON.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return unsupportedMediaType('Unsupported body encoding or charset.');
    case 'request.aborted':
      return badRequest('The request was aborted by the client.');
    default:
      return null;
  }
}

/** Unknown paths (including unknown API versions) answer 404 in the envelope. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`Route ${req.method} ${req.path}`));
};

/**
 * The one place REST errors are rendered: catalogue errors with their status and readable
 * reasons; anything else is logged with the request id and masked.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const known = isAppError(err) ? err : fromBodyParser(err as BodyParserError);
    if (known) {
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      if (known.retryAfter !== undefined) res.setHeader('Retry-After', String(known.retryAfter));
      if (known.status >= 500) logger.warn({ requestId: req.requestId, code: known.code, msg: known.message }, 'request failed');
      res.status(known.status).json(failure(known.reasons));
      return;
    }
    logger.error({ err, requestId: req.requestId }, 'unhandled error');
    res.status(500).json(failure([`Unexpected error. Request id: ${req.requestId}.`]));
  };
}
