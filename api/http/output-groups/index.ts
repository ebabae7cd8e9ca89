import { Router } from 'express';
import type { Services } from '../../../shared/services.js';
import { outputGroupManageRoutes } from './manage-routes.js';
import { outputGroupReadRoutes } from './read-routes.js';

/** Output groups: the management write side and the read side. */
export function outputGroupRoutes(services: Services): Router {
  const r = Router();
  r.use(outputGroupManageRoutes(services));
  r.use(outputGroupReadRoutes(services));
  return r;
}
