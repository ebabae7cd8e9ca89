import type { Queryable } from '../adapters/db/index.js';
import type { BuildAssetUrlContext } from './build-asset-url.js';
import { presetMap } from './preset-repository.js';

/**
 * Everything `buildAssetUrl` needs for one org: load it once per request (one query for the
 * presets), then build any number of URLs without I/O.
 */
export async function loadAssetUrlContext(
  deps: { db: Queryable; config: { publicBaseUrl: string }; secrets: { signing: Buffer } },
  orgId: string,
): Promise<BuildAssetUrlContext> {
  return { baseUrl: deps.config.publicBaseUrl, secret: deps.secrets.signing, presets: await presetMap(deps.db, orgId) };
}
