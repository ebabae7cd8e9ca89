import express, { type Application, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Services } from '../../shared/services.js';
import { createAuthenticator } from './auth.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { jsonBody } from './json-body.js';
import { openApiRoutes } from './openapi/index.js';
import { requestId } from './request-context.js';
import { jsonRoutes, rawBodyRoutes } from './routes.js';

function recordDuration(services: Services): RequestHandler {
  return (req, res, next) => {
    const end = services.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // The route template, not the raw path, so ids do not explode the label set.
      const route = req.route?.path ? String(req.baseUrl ?? '') + String(req.route.path) : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/**
 * The HTTP application: request ids and logs first, then routes in the order of `routes.ts`,
 * then the 404 and the one error handler.
 */
export function createApp(services: Services): Application {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);
  app.locals.services = services;
  app.locals.auth = createAuthenticator(services);
  app.locals.draining = false;

  app.use(requestId);
  app.use(
    pinoHttp({
      logger: services.logger,
      genReqId: (req) => (req as express.Request).requestId,
      customProps: (req) => ({ requestId: (req as express.Request).requestId }),
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.replace(/([?&]access_token=)[^&]*/i, '$1[redacted]') }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(recordDuration(services));

  for (const router of rawBodyRoutes(services)) app.use(router);
  app.use(jsonBody(services.config.limits.bodyBytes));
  app.use(openApiRoutes(services.config.publicBaseUrl));
  for (const router of jsonRoutes(services)) app.use(router);

  app.use(notFoundHandler);
  app.use(errorHandler(services.logger));
  return app;
}
