import express, { type RequestHandler } from 'express';
import { badRequest, unsupportedMediaType } from '../../shared/errors/index.js';
import { jsonShapeProblem, MAX_JSON_DEPTH } from '../../shared/json-depth.js';

/**
 * JSON bodies for every route after the raw-body section: size limit → 413, bad JSON or nesting
 * deeper than MAX_JSON_DEPTH → 400. A gzip, deflate or br Content-Encoding is decoded as a stream
 * (the limit counts decoded bytes); any other encoding → 415.
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  return [
    express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'], strict: false }),
    (req, _res, next) => {
      const problem = req.body === undefined ? null : jsonShapeProblem(req.body, { maxDepth: MAX_JSON_DEPTH });
      next(problem ? badRequest(`Request body: ${problem}.`) : undefined);
    },
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
