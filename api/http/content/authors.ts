import type { Router } from 'express';
import { authorDef } from '../../../shared/content/authors.js';
import { authorInputSchema, authorPatchSchema } from '../../../shared/content/resource-input.js';
import type { Services } from '../../../shared/services.js';
import { resourceRoutes } from './resource-routes.js';

/** `/management/v1/authors`. */
export function authorRoutes(services: Services): Router {
  return resourceRoutes(services, { path: '/management/v1/authors', def: authorDef, createSchema: authorInputSchema, patchSchema: authorPatchSchema });
}
