import { Router, type Request } from 'express';
import { createAsset, replaceContent } from '../../../shared/assets/asset-service.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { uploadQuerySchema } from '../../../shared/assets/asset-input.js';
import { assetView } from './asset-view.js';
import { uploadSource } from './upload-source.js';

/**
 * Uploads read their own bodies (raw or multipart), so these routes sit before the JSON parser.
 * Metadata comes from the query string (and multipart fields sent before the file).
 */
export function assetUploadRoutes(services: Services): Router {
  const r = Router();
  const deps = { db: services.db, blobs: services.blobs, bus: services.bus, logger: services.logger, maxBytes: services.config.limits.uploadBytes, ffmpeg: services.ffmpeg, assetCaches: services.assetCaches };

  const readUpload = async (req: Request) => {
    const query = parseInput(uploadQuerySchema, req.query, { what: 'query string' });
    const source = await uploadSource(req, deps.maxBytes);
    const fields = Object.keys(source.fields).length > 0 ? parseInput(uploadQuerySchema, source.fields, { what: 'multipart fields' }) : {};
    const meta = { ...fields, ...query };
    if (meta.fileName === undefined && source.fileName) meta.fileName = source.fileName.slice(0, 255);
    return { stream: source.stream, meta };
  };

  r.post('/management/v1/assets', requireScope('manage'), async (req, res) => {
    const { stream, meta } = await readUpload(req);
    const asset = await createAsset(deps, tenantOf(req).orgId, stream, meta);
    res.status(201).json(ok(assetView(services, asset)));
  });

  r.put('/management/v1/assets/:id/content', requireScope('manage'), async (req, res) => {
    const { stream, meta } = await readUpload(req);
    const asset = await replaceContent(deps, tenantOf(req).orgId, String(req.params.id), stream, meta);
    res.json(ok(assetView(services, asset)));
  });

  return r;
}
