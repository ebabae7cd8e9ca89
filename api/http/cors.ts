import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * CORS for the read side (`/graphql`, `/api/v1/…`), so that a web page on any origin can call
 * Folio with a bearer token. A token is never sent by a browser on its own (no cookies), so any
 * origin is answered; an organization that lists its allowed origins refuses the others at
 * admission (403, in the body the browser can read). Preflights carry no token: they are always
 * answered, for a day.
 */
const ALLOW_HEADERS = 'authorization, content-type';
/**
 * What a page's script may read: X-Origin-Request-Id is the request id of an answer a shared cache
 * may store (see markShareable), the one to quote when asking about it.
 */
export const EXPOSE_HEADERS = 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, X-Origin-Request-Id';
const MAX_AGE_SECONDS = '86400';

/**
 * Adds the CORS headers to the answer of a request that names its `Origin`, and answers a
 * preflight (204) itself — then it returns true and the request is done.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, methods: string): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': MAX_AGE_SECONDS,
      'Content-Length': '0',
    });
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  return false;
}

/** `applyCors` for the read-only REST routes. */
export const readApiCors: RequestHandler = (req, res, next) => {
  if (!applyCors(req, res, 'GET, HEAD, OPTIONS')) next();
};
