import { Router, type Request } from 'express';
import { parseAnalyticsQuery } from '../../../shared/analytics/range.js';
import { breakdown, distributionAnalytics, emptyAnalytics, type BreakdownKind } from '../../../shared/analytics/reports.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The five analytics endpoints (scope `analytics`). A regular expression instead of a
 * path template because the API answers an empty project or distribution id (`/projects//…`)
 * answered with an empty result, and a template parameter never matches an empty segment. Only
 * version 1 exists; any other version falls through to the 404 envelope.
 */
const ANALYTICS = /^\/api\/v1\/projects\/([^/]*)\/distributions\/([^/]*)\/analytics(?:\/(geo|path|device|referers))?\/?$/;

function ids(req: Request): { projectId: string; distributionId: string; kind: BreakdownKind | 'overview' } {
  const params = req.params as unknown as Record<string, string | undefined>;
  const decode = (s: string | undefined) => decodeURIComponent(s ?? '');
  return { projectId: decode(params[0]), distributionId: decode(params[1]), kind: (params[2] as BreakdownKind | undefined) ?? 'overview' };
}

export function analyticsRoutes(services: Services): Router {
  const r = Router();
  r.get(ANALYTICS, requireScope('analytics'), async (req, res) => {
    const tenant = tenantOf(req);
    const { projectId, distributionId, kind } = ids(req);
    const range = parseAnalyticsQuery(req.query as Record<string, unknown>);
    if (projectId === '' || distributionId === '') {
      res.json(ok(emptyAnalytics(kind)));
      return;
    }
    await requireDistribution(services.db, tenant.orgId, projectId, distributionId);
    const scope = { orgId: tenant.orgId, distributionId, fromMs: range.fromMs, toMs: range.toMs };
    const result =
      kind === 'overview'
        ? await distributionAnalytics(services.analytics, scope, range)
        : await breakdown(services.analytics, scope, range, kind);
    res.json(ok(result));
  });
  return r;
}
