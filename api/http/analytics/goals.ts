import { Router, type Request } from 'express';
import { changeOf, comparedPeriod } from '../../../shared/analytics/compare.js';
import { funnelAnalytics } from '../../../shared/analytics/funnel-report.js';
import { funnelInputSchema, goalInputSchema } from '../../../shared/analytics/goal-input.js';
import { goalAnalytics } from '../../../shared/analytics/goal-report.js';
import { MAX_PER_DISTRIBUTION, deleteFunnel, deleteGoal, insertFunnel, insertGoal, listFunnels, listGoals, requireFunnel } from '../../../shared/analytics/goal-repository.js';
import { parseReportQuery, scopeOf } from '../../../shared/analytics/report-request.js';
import type { Scope } from '../../../shared/analytics/window-sql.js';
import { ok } from '../../../shared/envelope.js';
import { badRequest, conflict } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * Goals and funnels of one distribution: configured on the management API (scope `manage`; for
 * members, the analytics area, decided in request-policy.ts), read on the analytics API (scope
 * `analytics`) with the reports' filters and `compare`. Always read from the raw lines.
 */
const MANAGE = '/management/v1/projects/:projectId/distributions/:distributionId';
const REPORT = '/api/v1/projects/:projectId/distributions/:distributionId/analytics';

async function distributionOf(services: Services, req: Request): Promise<{ orgId: string; distributionId: string }> {
  const orgId = tenantOf(req).orgId;
  const distribution = await requireDistribution(services.db, orgId, String(req.params.projectId), String(req.params.distributionId));
  return { orgId, distributionId: distribution.id };
}

/** The figures over the window and, with `compare`, over the other period with the change per figure. */
async function compared<T>(req: Request, who: { orgId: string; distributionId: string }, run: (scope: Scope) => Promise<T>) {
  const request = parseReportQuery(req.query as Record<string, unknown>);
  const scope = scopeOf(who, request);
  const current = await run(scope);
  if (!request.compare) return { current, previous: undefined };
  const other = comparedPeriod(request.range, request.compare);
  const previous = other === null ? null : await run({ ...scope, ...other });
  return { current, previous };
}

export function goalRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');
  const analytics = requireScope('analytics');

  r.post(`${MANAGE}/goals`, manage, async (req, res) => {
    const who = await distributionOf(services, req);
    const goal = await insertGoal(services.db, who, parseInput(goalInputSchema, req.body));
    if (!goal) throw conflict(`A distribution has at most ${MAX_PER_DISTRIBUTION} goals; delete one first.`);
    res.status(201).json(ok(goal));
  });
  r.get(`${MANAGE}/goals`, manage, async (req, res) => {
    res.json(ok(await listGoals(services.db, await distributionOf(services, req))));
  });
  r.delete(`${MANAGE}/goals/:id`, manage, async (req, res) => {
    await deleteGoal(services.db, await distributionOf(services, req), String(req.params.id));
    res.json(ok({ id: req.params.id, deleted: true }));
  });

  r.post(`${MANAGE}/funnels`, manage, async (req, res) => {
    const who = await distributionOf(services, req);
    const funnel = await insertFunnel(services.db, who, parseInput(funnelInputSchema, req.body));
    if (!funnel) throw conflict(`A distribution has at most ${MAX_PER_DISTRIBUTION} funnels; delete one first.`);
    res.status(201).json(ok(funnel));
  });
  r.get(`${MANAGE}/funnels`, manage, async (req, res) => {
    res.json(ok(await listFunnels(services.db, await distributionOf(services, req))));
  });
  r.delete(`${MANAGE}/funnels/:id`, manage, async (req, res) => {
    await deleteFunnel(services.db, await distributionOf(services, req), String(req.params.id));
    res.json(ok({ id: req.params.id, deleted: true }));
  });

  // each goal's figures; with compare, each carries its own previous and change
  r.get(`${REPORT}/goals`, analytics, async (req, res) => {
    parseReportQuery(req.query as Record<string, unknown>); // a bad parameter is a 400 before any lookup
    const who = await distributionOf(services, req);
    const goals = await listGoals(services.db, who);
    const { current, previous } = await compared(req, who, (scope) => goalAnalytics(services.analytics, scope, goals));
    if (previous === undefined) return void res.json(ok(current));
    res.json(ok(current.map((g, i) => ({ ...g, previous: previous?.[i] ?? null, change: previous ? (changeOf(g, previous[i]) ?? {}) : null }))));
  });

  // every funnel's figures (the dashboard's panel: an analytics reader has no management door)
  r.get(`${REPORT}/funnels`, analytics, async (req, res) => {
    const request = parseReportQuery(req.query as Record<string, unknown>);
    if (request.compare) throw badRequest('compare: ask one funnel (…/analytics/funnels/:id) for a comparison.');
    const who = await distributionOf(services, req);
    const scope = scopeOf(who, request);
    const funnels = await listFunnels(services.db, who);
    res.json(ok(await Promise.all(funnels.map((f) => funnelAnalytics(services.analytics, scope, f)))));
  });

  r.get(`${REPORT}/funnels/:id`, analytics, async (req, res) => {
    parseReportQuery(req.query as Record<string, unknown>);
    const who = await distributionOf(services, req);
    const funnel = await requireFunnel(services.db, who, String(req.params.id));
    const { current, previous } = await compared(req, who, (scope) => funnelAnalytics(services.analytics, scope, funnel));
    if (previous === undefined) return void res.json(ok(current));
    res.json(ok({ ...current, previous, change: previous ? (changeOf(current, previous) ?? {}) : null }));
  });
  return r;
}
