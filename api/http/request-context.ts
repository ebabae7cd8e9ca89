import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { TenantContext } from '../../shared/tenancy/context.js';

declare global {
  // Express's own extension point for per-request state.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      tenant?: TenantContext;
    }
  }
}

/** A Node request once the front door has given it an id (Express's `Request` is one too). */
export type IdentifiedRequest = IncomingMessage & { requestId: string };

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Takes a sane X-Request-Id from the caller (a proxy's) or makes one; echoes it back. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): IdentifiedRequest {
  const given = req.headers['x-request-id'];
  const identified = req as IdentifiedRequest;
  identified.requestId = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', identified.requestId);
  return identified;
}

/** Express form, for apps mounted without the front door (it is idempotent on an id already set). */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  if (!req.requestId) assignRequestId(req, res);
  next();
}

/**
 * Marks a response that shared caches may store (Cache-Control: public). A CDN replays a stored
 * response's headers on its own hits, where an X-Request-Id would claim a request that never
 * reached Folio: such a response names its request X-Origin-Request-Id instead — the origin
 * request that produced the stored copy, the one Folio's logs know. (Its X-Cache likewise is
 * Folio's cache at that moment, not the CDN's.)
 */
export function markShareable(res: ServerResponse): void {
  const id = res.getHeader('X-Request-Id');
  if (id === undefined) return;
  res.removeHeader('X-Request-Id');
  res.setHeader('X-Origin-Request-Id', id);
}

