import { Router } from 'express';
import type { Services } from '../../../shared/services.js';
import { assetRoutes } from './asset-routes.js';
import { imagePresetRoutes } from './preset-routes.js';

export { assetUploadRoutes } from './upload-routes.js';

/** Management routes of assets and image presets whose bodies are JSON. */
export function assetManagementRoutes(services: Services): Router {
  const r = Router();
  r.use(assetRoutes(services));
  r.use(imagePresetRoutes(services));
  return r;
}
