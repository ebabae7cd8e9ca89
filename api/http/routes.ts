import type { Router } from 'express';
import type { Services } from '../../shared/services.js';
import { analyticsRoutes } from './analytics/index.js';
import { goalRoutes } from './analytics/goals.js';
import { sharedLinkRoutes } from './analytics/shared-links.js';
import { analyticsSettingsRoutes } from './analytics/settings.js';
import { analyticsProjectRoutes } from './analytics/projects.js';
import { dashboardRoutes } from './dashboard/index.js';
import { studioRoutes } from './studio/index.js';
import { assetManagementRoutes, assetUploadRoutes } from './assets/index.js';
import { deadLetterRoutes } from './ingest/dead-letters.js';
import { ingestRoutes } from './ingest/index.js';
import { contentRoutes } from './content/index.js';
import { importRoutes } from './content/import.js';
import { edgeRoutes } from './edge/index.js';
import { embedRoutes } from './embed/index.js';
import { fileRoutes } from './files/index.js';
import { imageRoutes } from './img/index.js';
import { outputGroupRoutes } from './output-groups/index.js';
import { allowedOriginRoutes } from './platform/allowed-origins.js';
import { healthRoutes } from './platform/health.js';
import { indexRoutes } from './platform/index-page.js';
import { organizationAdminRoutes } from './platform/organization-admin.js';
import { organizationRoutes } from './platform/organizations.js';
import { organizationSettingsRoutes } from './platform/organization-settings.js';
import { projectRoutes } from './platform/projects.js';
import { siteRoutes } from './platform/sites.js';
import { tokenRoutes } from './platform/tokens.js';
import { webhookRoutes } from './webhooks/index.js';
import { authRoutes } from './people/auth-routes.js';
import { memberRoutes } from './people/member-routes.js';
import { ssoRoutes } from './people/sso-routes.js';
import { totpRoutes } from './people/totp-routes.js';
import { personalTokenRoutes } from './people/personal-token-routes.js';
import { auditRoutes } from './audit/index.js';
import { releaseRoutes } from './releases/index.js';

// The one ordered list of routers. Each feature lives in its own folder under `api/http/` and
// contributes one line here.

/** Routes that read their own request bodies (uploads, ingest, files): before the JSON parser. */
export function rawBodyRoutes(services: Services): Router[] {
  return [
    // The hottest paths first: Express tries routers in order on every request. (`/graphql`
    // and image memory hits never reach Express: see front-door.ts.)
    imageRoutes(services),
    fileRoutes(services),
    healthRoutes(services),
    indexRoutes(),
    importRoutes(services),
    ingestRoutes(services),
    assetUploadRoutes(services),
    embedRoutes(services),
    dashboardRoutes(services),
    studioRoutes(),
  ];
}

/** Routes whose bodies are JSON (parsed globally: size limit → 413, bad JSON → 400). */
export function jsonRoutes(services: Services): Router[] {
  return [
    organizationRoutes(services),
    organizationAdminRoutes(services),
    organizationSettingsRoutes(services),
    tokenRoutes(services),
    authRoutes(services),
    memberRoutes(services),
    ssoRoutes(services),
    totpRoutes(services),
    personalTokenRoutes(services),
    auditRoutes(services),
    allowedOriginRoutes(services),
    siteRoutes(services),
    projectRoutes(services),
    outputGroupRoutes(services),
    analyticsRoutes(services),
    goalRoutes(services),
    sharedLinkRoutes(services),
    analyticsSettingsRoutes(services),
    analyticsProjectRoutes(services),
    contentRoutes(services),
    releaseRoutes(services),
    assetManagementRoutes(services),
    deadLetterRoutes(services),
    webhookRoutes(services),
    edgeRoutes(services),
  ];
}
