import type { Router } from 'express';
import { labelDef } from '../../../shared/content/labels.js';
import { labelInputSchema, labelPatchSchema } from '../../../shared/content/resource-input.js';
import type { Services } from '../../../shared/services.js';
import { resourceRoutes } from './resource-routes.js';

/** `/management/v1/labels`. */
export function labelRoutes(services: Services): Router {
  return resourceRoutes(services, { path: '/management/v1/labels', def: labelDef, createSchema: labelInputSchema, patchSchema: labelPatchSchema });
}
