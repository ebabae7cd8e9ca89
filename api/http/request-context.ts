import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { TenantContext } from '../../shared/tenancy/context.js';

declare global {
  // Express's own extension point for per-request state.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      tenant?: TenantContext;
      /** Set by `attachTenant` when authentication failed. */
      authError?: unknown;
    }
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Takes a sane X-Request-Id from the caller (a proxy's) or makes one; echoes it back. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  req.requestId = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
