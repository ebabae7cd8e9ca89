import { Router, type Request } from 'express';
import { parseAnalyticsQuery } from '../../../shared/analytics/range.js';
import { botAnalytics, breakdown, distributionAnalytics, emptyAnalytics, realtimeAnalytics, statusAnalytics, type ReportKind } from '../../../shared/analytics/reports.js';
import { imageAnalytics } from '../../../shared/analytics/image-report.js';
import { entryAnalytics } from '../../../shared/analytics/entry-report.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The analytics endpoints (scope `analytics`): the original five, and status, bots, realtime,
 * assets and entries. A regular expression instead of a path template because the API answers an empty
 * project or distribution id (`/projects//…`) with an empty result, and a template parameter
 * never matches an empty segment. Only version 1 exists; any other version falls through to the
 * 404 envelope.
 */
const ANALYTICS = /^\/api\/v1\/projects\/([^/]*)\/distributions\/([^/]*)\/analytics(?:\/(geo|path|device|referers|status|bots|realtime|assets|entries))?\/?$/;

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
    const range = parseAnalyticsQuery(req.query as Record<string, unknown>);
    if (projectId === '' || distributionId === '') {
      res.json(ok(emptyAnalytics(kind)));
      return;
    }
    await requireDistribution(services.db, tenant.orgId, projectId, distributionId);
    const scope = { orgId: tenant.orgId, distributionId, fromMs: range.fromMs, toMs: range.toMs, excludeBots: range.excludeBots };
    const store = services.analytics;
    switch (kind) {
      case 'overview':
        res.json(ok(await distributionAnalytics(store, scope, range, services.dayVisitors)));
        return;
      case 'status':
        res.json(ok(await statusAnalytics(store, scope, range)));
        return;
      case 'bots':
        res.json(ok(await botAnalytics(store, scope, range)));
        return;
      case 'realtime':
        res.json(ok(await realtimeAnalytics(store, scope)));
        return;
      case 'assets':
        res.json(ok(await imageAnalytics(store, services.db, scope, range)));
        return;
      case 'entries':
        res.json(ok(await entryAnalytics(store, services.db, services.entryTraffic, scope, range)));
        return;
      default:
        res.json(ok(await breakdown(store, scope, range, kind)));
    }
  });
  return r;
}
