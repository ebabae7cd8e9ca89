import { Router } from 'express';
import type { Services } from '../../../shared/services.js';
import { componentRoutes } from './components.js';
import { entryLifecycleRoutes } from './entry-lifecycle.js';
import { entryRoutes } from './entries.js';
import { entryVersionRoutes } from './entry-versions.js';
import { exportRoutes } from './export.js';
import { modelRoutes } from './models.js';
import { authorRoutes } from './authors.js';
import { labelRoutes } from './labels.js';
import { localeRoutes } from './locales.js';
import { listRoutes } from './lists.js';
import { sectionRoutes } from './sections.js';
import { previewLinkRoutes } from './preview-links.js';

/** Every JSON route of the content management API (the NDJSON import is mounted separately). */
export function contentRoutes(services: Services): Router {
  const r = Router();
  r.use(localeRoutes(services));
  r.use(modelRoutes(services));
  r.use(componentRoutes(services));
  r.use(entryRoutes(services));
  r.use(entryLifecycleRoutes(services));
  r.use(entryVersionRoutes(services));
  r.use(previewLinkRoutes(services));
  r.use(sectionRoutes(services));
  r.use(authorRoutes(services));
  r.use(labelRoutes(services));
  r.use(listRoutes(services));
  r.use(exportRoutes(services));
  return r;
}
