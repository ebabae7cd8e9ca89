import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { listDeadLetters } from '../../../shared/ingest/spool-repository.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * `GET /management/v1/ingest/dead-letters` (scope `manage`): the organization's accepted log
 * batches that ClickHouse refused even alone, newest first, with the error — what an operator
 * needs to find the shipper that sends them. Paged in the envelope.
 */
export function deadLetterRoutes(services: Services): Router {
  const r = Router();
  r.get('/management/v1/ingest/dead-letters', requireScope('manage'), async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listDeadLetters(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });
  return r;
}
