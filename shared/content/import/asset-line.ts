import { z } from 'zod';
import { originalKey } from '../../adapters/blobs/keys.js';
import { assetPatchSchema } from '../../assets/asset-input.js';
import { findAsset, type AssetPatch } from '../../assets/asset-repository.js';
import { createAsset, updateAsset, type AssetServiceDeps } from '../../assets/asset-service.js';
import type { Asset, FocalPoint } from '../../assets/types.js';
import { parseFilePath } from '../../assets/url-grammar.js';
import { isAppError } from '../../errors/index.js';
import { describeIssues } from './line-helpers.js';
import type { LineResult } from './types.js';

/** What reading an `asset` line needs beyond the content deps: the asset service and this Folio's signing secret. */
export interface AssetLineDeps extends AssetServiceDeps {
  signingSecret: Buffer;
}

const text = (max = 2000) => z.string().max(max).nullable().optional();

export const assetLineSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64'),
  /** The signed `/files` URL an export wrote: the bytes are copied from there. */
  url: z.string().min(1).max(4000),
  title: text(),
  fileName: text(500),
  path: text(),
  caption: text(),
  alt: text(),
  author: text(),
  source: text(),
  tags: z.array(z.string().max(200)).max(100).optional(),
  externalId: text(500),
  // as PATCH /management/v1/assets/{id} takes them, checked by the same rules
  ...assetPatchSchema.pick({ focalPoint: true, focalPoints: true, posterAssetId: true }).shape,
});

type PointsAndPoster = Pick<AssetPatch, 'focalPoint' | 'focalPoints' | 'posterAssetId'>;

const samePoint = (a: FocalPoint | null | undefined, b: FocalPoint | null) => (a ?? null) === b || (!!a && !!b && a.x === b.x && a.y === b.y);

/** What of the line's focal points and poster the asset does not have yet (nothing: no write, so a second run changes nothing). */
function pointsAndPosterToSet(line: PointsAndPoster, asset: Asset): PointsAndPoster {
  const patch: PointsAndPoster = {};
  if (line.focalPoint !== undefined && !samePoint(line.focalPoint, asset.focalPoint)) patch.focalPoint = line.focalPoint;
  const ratios = (list: NonNullable<AssetPatch['focalPoints']>) => JSON.stringify(list.map((f) => [f.ratio, f.focalPoint.x, f.focalPoint.y]));
  if (line.focalPoints !== undefined && ratios(line.focalPoints) !== ratios(asset.focalPoints)) patch.focalPoints = line.focalPoints;
  if (line.posterAssetId !== undefined && line.posterAssetId !== asset.posterAssetId) patch.posterAssetId = line.posterAssetId;
  return patch;
}

/**
 * An `asset` line: the asset named by `url` — a signed `/files` URL of this Folio, as an export
 * writes it — copied under the line's id with the line's metadata. Its signature is checked with
 * this Folio's secret, so only a URL Folio handed out (which anyone holding it may download
 * anyway) is read, straight from the blob store; other URLs are refused, no request is made. An
 * asset the org already has under that id is kept, so an import can be run again. Focal points
 * and the poster are then set as a PATCH of the asset sets them (a poster must be an image of
 * the org, written by an earlier line); running the line again sets what a failed run left out.
 */
export async function applyAssetLine(deps: AssetLineDeps, orgId: string, line: number, body: unknown): Promise<LineResult> {
  const fail = (errors: string[]): LineResult => ({ line, type: 'asset', ok: false, errors });
  const p = assetLineSchema.safeParse(body);
  if (!p.success) return fail(describeIssues(p.error));
  const { id, url, focalPoint, focalPoints, posterAssetId, ...meta } = p.data;
  const existing = await findAsset(deps.db, orgId, id);
  if (existing) return setPointsAndPoster(deps, orgId, line, existing, { focalPoint, focalPoints, posterAssetId });
  let path: string;
  try {
    path = new URL(url, 'http://folio.invalid').pathname;
  } catch {
    return fail(['url: not a URL']);
  }
  if (!path.startsWith('/files/')) return fail(['url: only the signed /files URLs of this Folio are read (an export writes them); upload other files through /management/v1/assets']);
  let source;
  try {
    const parts = parseFilePath(deps.signingSecret, path.slice('/files/'.length));
    const asset = await findAsset(deps.db, parts.orgId, parts.assetId);
    source = asset && asset.versionId === parts.versionId ? await deps.blobs.get(originalKey(parts.orgId, parts.assetId, parts.versionId)) : null;
  } catch (err) {
    if (isAppError(err)) return fail([`url: ${err.message}`]);
    throw err;
  }
  if (!source) return fail(['url: the file is gone (its asset was deleted or replaced since the export)']);
  let created: Asset;
  try {
    created = await createAsset(deps, orgId, source.body, { ...meta, tags: meta.tags ?? [] }, id);
  } catch (err) {
    if (isAppError(err)) return fail(err.reasons.length > 0 ? err.reasons : [err.message]);
    throw err;
  }
  return setPointsAndPoster(deps, orgId, line, created, { focalPoint, focalPoints, posterAssetId });
}

/** The line's focal points and poster on the asset, through the asset PATCH's own checks; a refusal fails the line with its reasons. */
async function setPointsAndPoster(deps: AssetLineDeps, orgId: string, line: number, asset: Asset, wanted: PointsAndPoster): Promise<LineResult> {
  const patch = pointsAndPosterToSet(wanted, asset);
  if (Object.keys(patch).length === 0) return { line, type: 'asset', ok: true, id: asset.id };
  try {
    await updateAsset(deps, orgId, asset.id, patch);
    return { line, type: 'asset', ok: true, id: asset.id };
  } catch (err) {
    if (!isAppError(err)) throw err;
    // the details name the member ("posterAssetId: …"); the message speaks of a request body there is none of here
    const reasons = err.details.length > 0 ? err.details : [err.message];
    return { line, type: 'asset', ok: false, errors: [...reasons, 'the file is copied without its focal points and poster; run this line again once its poster is there'] };
  }
}
