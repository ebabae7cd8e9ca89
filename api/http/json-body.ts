import express, { type RequestHandler } from 'express';
import { unsupportedMediaType } from '../../shared/errors/index.js';

/** JSON bodies for every route after the raw-body section; size limit → 413, bad JSON → 400. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  return [
    express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'], strict: false }),
    // A body that is not JSON on a JSON route is refused instead of being silently ignored.
    (req, _res, next) => {
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (hasBody && req.method !== 'GET' && req.method !== 'HEAD' && !req.is(['application/json', 'application/*+json'])) {
        return next(unsupportedMediaType('Send the request body as application/json.'));
      }
      next();
    },
  ];
}
