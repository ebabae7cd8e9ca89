import express, { type Application } from 'express';
import type { Services } from '../../shared/services.js';
import { accessLog } from './access-log.js';
import { readApiCors } from './cors.js';
import { createAuthenticator } from './auth.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { jsonBody } from './json-body.js';
import { openApiRoutes } from './openapi/index.js';
import { requestId } from './request-context.js';
import { jsonRoutes, rawBodyRoutes } from './routes.js';

/**
 * The HTTP application: request ids and logs first, then routes in the order of `routes.ts`,
 * then the 404 and the one error handler.
 */
export function createApp(services: Services): Application {
  const app = express();
  app.disable('x-powered-by');
  // req.ip (the access log) reads X-Forwarded-For as far as TRUST_PROXY allows, as everything else does
  app.set('trust proxy', services.trustProxy);
  app.locals.auth = createAuthenticator(services);
  app.locals.draining = false;

  app.use(requestId);
  app.use(accessLog(services));
  app.use('/api/v1', readApiCors);

  for (const router of rawBodyRoutes(services)) app.use(router);
  app.use(jsonBody(services.config.limits.bodyBytes));
  app.use(openApiRoutes(services.config.publicBaseUrl));
  for (const router of jsonRoutes(services)) app.use(router);

  app.use(notFoundHandler);
  app.use(errorHandler(services.logger));
  return app;
}
