import type { Router } from 'express';
import { authorDef, authorInputSchema, authorPatchSchema } from '../../../shared/content/authors.js';
import type { Services } from '../../../shared/services.js';
import { resourceRoutes } from './resource-routes.js';

/** `/management/v1/authors`. */
export function authorRoutes(services: Services): Router {
  return resourceRoutes(services, { path: '/management/v1/authors', def: authorDef, createSchema: authorInputSchema, patchSchema: authorPatchSchema });
}
