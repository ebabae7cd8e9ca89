import { Router, type Request } from 'express';
import { emptyAnalytics, type ReportKind } from '../../../shared/analytics/reports.js';
import { parseReportQuery, runReport } from '../../../shared/analytics/report-request.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The analytics endpoints (scope `analytics`): the original five, and status, bots, realtime,
 * assets, entries and campaigns, each with filters and `compare=previous` (see
 * report-request.ts). A regular expression instead of a path template because the API answers
 * an empty project or distribution id (`/projects//…`) with an empty result, and a template
 * parameter never matches an empty segment. Only version 1 exists; any other version falls
 * through to the 404 envelope.
 */
const ANALYTICS = /^\/api\/v1\/projects\/([^/]*)\/distributions\/([^/]*)\/analytics(?:\/(geo|path|device|referers|status|bots|realtime|assets|entries|campaigns))?\/?$/;

function ids(req: Request): { projectId: string; distributionId: string; kind: ReportKind } {
  const params = req.params as unknown as Record<string, string | undefined>;
  const decode = (s: string | undefined) => decodeURIComponent(s ?? '');
  return { projectId: decode(params[0]), distributionId: decode(params[1]), kind: (params[2] as ReportKind | undefined) ?? 'overview' };
}

export function analyticsRoutes(services: Services): Router {
  const r = Router();
  r.get(ANALYTICS, requireScope('analytics'), async (req, res) => {
    const tenant = tenantOf(req);
    const { projectId, distributionId, kind } = ids(req);
    const request = parseReportQuery(req.query as Record<string, unknown>);
    if (projectId === '' || distributionId === '') {
      res.json(ok(emptyAnalytics(kind)));
      return;
    }
    await requireDistribution(services.db, tenant.orgId, projectId, distributionId);
    const deps = { store: services.analytics, db: services.db, dayVisitors: services.dayVisitors, entryTraffic: services.entryTraffic };
    res.json(ok(await runReport(deps, kind, { orgId: tenant.orgId, distributionId }, request)));
  });
  return r;
}
