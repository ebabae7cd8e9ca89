import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Services } from '../../shared/services.js';
import type { IdentifiedRequest } from './request-context.js';

const QUIET_PATHS = new Set(['/healthz', '/metrics']);

/**
 * One JSON line per request (request id, method, URL, status, time) and the duration metric by
 * route template, from one `close` listener. Replaces pino-http, whose two child loggers per
 * request cost about a third of the CPU of a cached image response even with logging off.
 * `route` is read when the response closes (Express knows its matched route only then).
 */
export function recordRequest(services: Services, req: IdentifiedRequest, res: ServerResponse, route: () => string): void {
  const { logger, metrics } = services;
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = res.writableFinished ? res.statusCode : 499;
    metrics.httpDuration.observe({ method: req.method ?? 'GET', route: route(), status: String(status) }, seconds);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if (!logger.isLevelEnabled('info') || QUIET_PATHS.has(q === -1 ? url : url.slice(0, q))) return;
    logger.info(
      {
        requestId: req.requestId,
        req: { method: req.method, url: ((req as { originalUrl?: string }).originalUrl ?? url).replace(/([?&]access_token=)[^&]*/i, '$1[redacted]') },
        res: { statusCode: status },
        responseTime: Math.round(seconds * 1000),
      },
      res.writableFinished ? 'request completed' : 'request aborted',
    );
  });
}

/** Express form: the route template, not the raw path, so ids do not explode the label set. */
export function accessLog(services: Services): RequestHandler {
  return (req, res, next) => {
    recordRequest(services, req, res, () => (req.route?.path ? String(req.baseUrl ?? '') + String(req.route.path) : 'unmatched'));
    next();
  };
}
