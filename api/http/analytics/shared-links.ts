import { Router, type Request, type Response } from 'express';
import { rateLimitHeaders } from '../../../shared/adapters/rate-limit/index.js';
import { funnelAnalytics } from '../../../shared/analytics/funnel-report.js';
import { goalAnalytics } from '../../../shared/analytics/goal-report.js';
import { listFunnels, listGoals } from '../../../shared/analytics/goal-repository.js';
import { parseReportQuery, runReport, scopeOf } from '../../../shared/analytics/report-request.js';
import type { ReportKind } from '../../../shared/analytics/reports.js';
import { expiryOf, sharedLinkInputSchema } from '../../../shared/analytics/shared-link-input.js';
import { insertSharedLink, listSharedLinks, resolveSharedLink, revokeSharedLink } from '../../../shared/analytics/shared-link-repository.js';
import { ok } from '../../../shared/envelope.js';
import { badRequest, notFound, rateLimited } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { findOrganization } from '../../../shared/tenancy/organization-repository.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * Shared links: made and revoked on the management API (scope `manage`; members with the
 * analytics area, as goals), and read without a token at /api/v1/shared/:secret/… — the one
 * distribution's reports, goals and funnels, nothing else of the organization. An unknown,
 * revoked or expired link, or one of a suspended organization, is 404.
 */
const MANAGE = '/management/v1/projects/:projectId/distributions/:distributionId/shared-links';
const KINDS = new Set(['geo', 'path', 'device', 'referers', 'status', 'bots', 'realtime', 'assets', 'entries', 'campaigns']);

/** The link's organization and distribution, when the link and its organization are alive. */
export async function openSharedLink(services: Services, secret: string) {
  const opened = await resolveSharedLink(services.db, secret);
  const org = await findOrganization(services.db, opened.orgId);
  if (!org || org.status !== 'active') throw notFound('Shared link');
  return { id: opened.link.id, orgId: opened.orgId, distributionId: opened.link.distributionId, name: opened.link.name, expiresAt: opened.link.expiresAt };
}

/**
 * A link's reads share one rate-limit bucket (the same rate as a token's): whoever holds the link
 * may run the raw-line reports, but no faster than a token of the organization could.
 */
async function admitSharedRead(services: Services, linkId: string, res: Response): Promise<void> {
  const rate = await services.rateLimiter.consume(`shared-link:${linkId}`);
  const headers = rateLimitHeaders(rate);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (!rate.allowed) throw rateLimited(rate.retryAfterSeconds, 'Too many requests through this shared link; retry later.', headers);
}

const urlOf = (req: Request, secret: string) => `${req.protocol}://${req.get('host') ?? 'localhost'}/dashboard/shared/${secret}`;

export function sharedLinkRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');
  const who = async (req: Request) => {
    const orgId = tenantOf(req).orgId;
    const d = await requireDistribution(services.db, orgId, String(req.params.projectId), String(req.params.distributionId));
    return { orgId, distributionId: d.id };
  };

  r.post(MANAGE, manage, async (req, res) => {
    const input = parseInput(sharedLinkInputSchema, req.body ?? {});
    const w = await who(req);
    const { link, secret } = await insertSharedLink(services.db, w, { name: input.name ?? `Shared view of ${w.distributionId}`, expiresAt: expiryOf(input) });
    res.status(201).json(ok({ ...link, url: urlOf(req, secret) }, { messages: ['The URL is shown once: keep it; revoke the link to end it.'] }));
  });
  r.get(MANAGE, manage, async (req, res) => {
    res.json(ok(await listSharedLinks(services.db, await who(req))));
  });
  r.delete(`${MANAGE}/:id`, manage, async (req, res) => {
    const link = await revokeSharedLink(services.db, await who(req), String(req.params.id));
    res.json(ok({ id: link.id, revoked: true, revokedAt: link.revokedAt }));
  });

  // what the shared dashboard shows: its name and the one distribution
  r.get('/api/v1/shared/:secret', async (req, res) => {
    const link = await openSharedLink(services, String(req.params.secret));
    res.json(ok({ name: link.name, distributionId: link.distributionId, expiresAt: link.expiresAt }));
  });
  r.get('/api/v1/shared/:secret/analytics{/:kind}{/:id}', async (req, res) => {
    const kind = req.params.kind as string | undefined;
    const request = parseReportQuery(req.query as Record<string, unknown>);
    const link = await openSharedLink(services, String(req.params.secret));
    await admitSharedRead(services, link.id, res);
    const at = { orgId: link.orgId, distributionId: link.distributionId };
    if (kind === 'goals' && req.params.id === undefined) {
      if (request.compare) throw badRequest('compare: not offered for goals through a shared link.');
      res.json(ok(await goalAnalytics(services.analytics, scopeOf(at, request), await listGoals(services.db, at))));
      return;
    }
    if (kind === 'funnels' && req.params.id === undefined) {
      if (request.compare) throw badRequest('compare: not offered for the funnels list.');
      const scope = scopeOf(at, request);
      res.json(ok(await Promise.all((await listFunnels(services.db, at)).map((f) => funnelAnalytics(services.analytics, scope, f)))));
      return;
    }
    if (req.params.id !== undefined || (kind !== undefined && !KINDS.has(kind))) throw notFound('Report');
    const deps = { store: services.analytics, db: services.db, dayVisitors: services.dayVisitors, entryTraffic: services.entryTraffic };
    res.json(ok(await runReport(deps, (kind ?? 'overview') as ReportKind, at, request)));
  });
  return r;
}
