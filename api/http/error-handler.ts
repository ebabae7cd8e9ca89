import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, badRequest, isAppError, notFound, payloadTooLarge, unsupportedMediaType } from '../../shared/errors/index.js';
import { knownError } from '../../shared/errors/known-error.js';
import { failure } from '../../shared/envelope.js';
import type { Logger } from '../../shared/logger.js';

interface ExpressError {
  type?: string;
  status?: number;
  limit?: number;
}

/** Errors raised by Express before a handler runs (body parsers, the router), in our catalogue. */
function fromExpress(err: ExpressError): AppError | null {
  // The router could not percent-decode a path parameter (`/models/%`).
  if (err instanceof URIError && err.status === 400) return badRequest('The path is not valid percent-encoding.');
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
 * reasons; anything else is logged with the request id and masked. Express routes reach it
 * through `errorHandler`; requests the front door answers itself (images) call it directly.
 */
export function writeError(res: ServerResponse, err: unknown, requestId: string, logger: Logger): void {
  if (res.headersSent) {
    // a body already under way cannot turn into an error answer: cut it (as Express does)
    res.destroy();
    return;
  }
  const known = isAppError(err) ? err : (fromExpress(err as ExpressError) ?? knownError(err));
  if (!known) logger.error({ err, requestId }, 'unhandled error');
  else if (known.status >= 500) logger.warn({ requestId, code: known.code, detail: known.message, err: isAppError(err) ? undefined : err }, 'request failed');
  // An error is never stored by a cache, whatever the route had set for its success (a /files
  // answer sets a year's Cache-Control before it reads the blob), and it names its request.
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(known?.headers ?? {}) };
  const originId = res.getHeader('X-Origin-Request-Id');
  if (originId !== undefined) {
    res.removeHeader('X-Origin-Request-Id');
    headers['X-Request-Id'] = String(originId);
  }
  for (const name of ['ETag', 'Content-Disposition', 'Accept-Ranges', 'X-Cache']) res.removeHeader(name);
  if (known?.retryAfter !== undefined) headers['Retry-After'] = String(known.retryAfter);
  const body = JSON.stringify(failure(known ? known.reasons : [`Unexpected error. Request id: ${requestId}.`]));
  res.writeHead(known?.status ?? 500, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    writeError(res, err, req.requestId, logger);
  };
}
