import { once } from 'node:events';
import { Router } from 'express';
import { auditFilterSchema, auditRetentionSchema, exportAudit, getRetention, listAudit, pruneAudit, setRetention } from '../../../shared/audit/audit-repository.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireArea, tenantOf } from '../auth.js';

/** `/management/v1/audit-log`: the members settings area (owners and admins, manage tokens). */
export function auditRoutes(services: Services): Router {
  const r = Router();
  const members = requireArea('members');

  r.get('/management/v1/audit-log', members, async (req, res) => {
    const filter = parseInput(auditFilterSchema, req.query, { what: 'filter' });
    const page = parsePage(req.query);
    const { orgId } = tenantOf(req);
    await pruneAudit(services.db, orgId);
    const { items, total } = await listAudit(services.db, orgId, filter, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  // NDJSON, oldest first, every row the filters match (no paging)
  r.get('/management/v1/audit-log/export', members, async (req, res) => {
    const filter = parseInput(auditFilterSchema, req.query, { what: 'filter' });
    const { orgId } = tenantOf(req);
    const pages = exportAudit(services.db, orgId, filter);
    let next = await pages.next();
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="folio-audit-${orgId}.ndjson"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      for (; !next.done; next = await pages.next()) {
        if (!res.write(next.value.map((row) => JSON.stringify(row)).join('\n') + '\n')) await once(res, 'drain');
        if (res.destroyed) return;
      }
      res.end();
    } catch (err) {
      services.logger.error({ err, orgId }, 'audit export failed part-way; the response was cut short');
      res.destroy();
    }
  });

  r.get('/management/v1/audit-log/settings', members, async (req, res) => {
    res.json(ok({ retentionDays: await getRetention(services.db, tenantOf(req).orgId) }));
  });

  r.put('/management/v1/audit-log/settings', members, async (req, res) => {
    const { retentionDays } = parseInput(auditRetentionSchema, req.body);
    await setRetention(services.db, tenantOf(req).orgId, retentionDays);
    res.json(ok({ retentionDays }));
  });

  return r;
}
