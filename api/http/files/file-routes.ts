import { assertNotSuspended } from '../../../shared/tenancy/suspensions.js';
import { Router, type Request, type Response } from 'express';
import { assetSurrogate } from '../../../shared/edge/surrogate-keys.js';
import { findAssetForDelivery } from '../../../shared/assets/asset-read-cache.js';
import type { Asset } from '../../../shared/assets/types.js';
import { parseFilePath } from '../../../shared/assets/url-grammar.js';
import { RangeNotSatisfiableError } from '../../../shared/adapters/blobs/index.js';
import { originalKey } from '../../../shared/adapters/blobs/keys.js';
import { notFound } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { parseRange } from './parse-range.js';
import { pipeBody } from './pipe-body.js';
import { markShareable } from '../request-context.js';
import { variantOf } from '../../../shared/edge/edge-variant.js';
import { answeredNotModified, contentDisposition, ifRangeMatches, IMMUTABLE } from './send-headers.js';

// Media a browser shows by itself; anything else is offered as a download.
const INLINE = /^(image\/|video\/|audio\/|text\/plain|application\/pdf)/;

/**
 * Originals: `/files/{sig}/{org}/{asset}/{version}/{fileName}` (signed, public). A version's
 * bytes never change, so the version id is a strong ETag and caches may keep it for a year. The
 * CSP keeps an SVG or any other document from running script when opened directly.
 */
export function fileRoutes(services: Services): Router {
  const r = Router();

  const resolve = async (req: Request): Promise<Asset> => {
    const parts = parseFilePath(services.secrets.signing, req.path.slice('/files/'.length));
    assertNotSuspended(services.suspensions, parts.orgId);
    const asset = await findAssetForDelivery(services.db, services.assetCaches, parts.orgId, parts.assetId);
    if (!asset || asset.versionId !== parts.versionId) throw notFound('File');
    return asset;
  };

  const commonHeaders = (res: Response, asset: Asset) => {
    const surrogate = assetSurrogate(asset.orgId, asset.id);
    for (const [name, value] of Object.entries(surrogate.headers)) res.setHeader(name, value);
    services.edgeUrls.record(asset.orgId, res.req.path, surrogate.keys, variantOf(res.req.headers));
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('ETag', `"${asset.versionId}"`);
    res.setHeader('Cache-Control', IMMUTABLE);
    markShareable(res);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Disposition', contentDisposition(INLINE.test(asset.contentType) ? 'inline' : 'attachment', asset.fileName ?? 'file'));
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  };

  r.head('/files/*rest', async (req, res) => {
    const asset = await resolve(req);
    commonHeaders(res, asset);
    if (answeredNotModified(req, res, `"${asset.versionId}"`)) return;
    res.setHeader('Content-Length', String(asset.size));
    res.status(200).end();
  });

  r.get('/files/*rest', async (req, res) => {
    const asset = await resolve(req);
    commonHeaders(res, asset);
    if (answeredNotModified(req, res, `"${asset.versionId}"`)) return;
    const range = ifRangeMatches(req, `"${asset.versionId}"`) ? parseRange(req.headers.range, asset.size) : undefined;
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${asset.size}`);
      res.status(416).end();
      return;
    }
    let blob;
    try {
      blob = await services.blobs.get(originalKey(asset.orgId, asset.id, asset.versionId), { range });
    } catch (err) {
      if (!(err instanceof RangeNotSatisfiableError)) throw err;
      res.setHeader('Content-Range', `bytes */${err.size}`);
      res.status(416).end();
      return;
    }
    if (!blob) throw notFound('File');
    if (blob.range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${blob.range.start}-${blob.range.end}/${blob.size}`);
      res.setHeader('Content-Length', String(blob.range.end - blob.range.start + 1));
    } else {
      res.setHeader('Content-Length', String(blob.size));
    }
    await pipeBody(blob.body, res);
  });

  return r;
}
