import { z } from 'zod';
import { originalKey } from '../../adapters/blobs/keys.js';
import { findAsset } from '../../assets/asset-repository.js';
import { createAsset, type AssetServiceDeps } from '../../assets/asset-service.js';
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
});

/**
 * An `asset` line: the asset named by `url` — a signed `/files` URL of this Folio, as an export
 * writes it — copied under the line's id with the line's metadata. Its signature is checked with
 * this Folio's secret, so only a URL Folio handed out (which anyone holding it may download
 * anyway) is read, straight from the blob store; other URLs are refused, no request is made. An
 * asset the org already has under that id is kept, so an import can be run again.
 */
export async function applyAssetLine(deps: AssetLineDeps, orgId: string, line: number, body: unknown): Promise<LineResult> {
  const fail = (errors: string[]): LineResult => ({ line, type: 'asset', ok: false, errors });
  const p = assetLineSchema.safeParse(body);
  if (!p.success) return fail(describeIssues(p.error));
  const { id, url, ...meta } = p.data;
  if (await findAsset(deps.db, orgId, id)) return { line, type: 'asset', ok: true, id };
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
  try {
    await createAsset(deps, orgId, source.body, { ...meta, tags: meta.tags ?? [] }, id);
    return { line, type: 'asset', ok: true, id };
  } catch (err) {
    if (isAppError(err)) return fail(err.reasons.length > 0 ? err.reasons : [err.message]);
    throw err;
  }
}
