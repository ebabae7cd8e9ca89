import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { badRequest } from '../../../shared/errors/index.js';
import { createBackpressure } from '../../../shared/ingest/backpressure.js';
import { ingestLogBatch } from '../../../shared/ingest/ingest-batch.js';
import type { Services } from '../../../shared/services.js';
import { requireDistribution } from '../../../shared/tenancy/project-repository.js';
import { requireScope, tenantOf } from '../auth.js';
import { readRawBody } from './read-body.js';

const LOGS = '/ingest/v1/distributions/:distributionId/logs';

/**
 * CDN log push, for real shippers unchanged: Vector's http sink, Fluent Bit's http
 * output, Logstash, Cloudflare Logpush, Fastly HTTPS logging. Reads its own body (raw, possibly
 * gzip or zstd), so it sits before the JSON parser.
 */
export function ingestRoutes(services: Services): Router {
  const r = Router();
  const backpressure = createBackpressure({ maxPending: services.config.limits.ingestMaxPendingBatches });

  // Shipper health checks (Vector sends HEAD to the sink URI): no body, no secrets revealed.
  r.head(LOGS, (_req, res) => {
    res.status(200).end();
  });

  // Fastly HTTPS logging asks this before streaming; "*" allows any service (the token guards the data).
  r.get('/.well-known/fastly/logging/challenge', (_req, res) => {
    res.type('text/plain').send('*\n');
  });

  r.post(LOGS, requireScope('ingest'), async (req, res) => {
    const tenant = tenantOf(req);
    const distributionId = String(req.params.distributionId);
    await requireDistribution(services.db, tenant.orgId, null, distributionId);
    const fieldsParam = req.query.fields;
    if (fieldsParam !== undefined && typeof fieldsParam !== 'string') throw badRequest('fields: give the parameter once.');
    const body = await readRawBody(req, services.config.limits.ingestBodyBytes);
    const result = await ingestLogBatch(services, backpressure, {
      orgId: tenant.orgId,
      distributionId,
      requestId: tenant.requestId,
      body,
      contentEncoding: req.headers['content-encoding'],
      realtimeFields: fieldsParam ? fieldsParam.split(',') : undefined,
    });
    const messages: string[] = [];
    if (result.probe) messages.push('Destination check received; no log lines in it.');
    if (result.duplicate) messages.push('This batch was accepted before; it is counted once.');
    if (result.rejected > 0) messages.push(`${result.rejected} line(s) rejected; see result.errors.`);
    res.status(200).json(
      ok(
        { batchId: result.batchId, accepted: result.accepted, rejected: result.rejected, duplicate: result.duplicate, errors: result.errors },
        { messages },
      ),
    );
  });

  return r;
}
