import type { Queryable } from '../adapters/db/index.js';
import type { DeliveryTarget } from '../webhooks/delivery-target.js';
import type { DeliveryToSend } from '../webhooks/delivery-repository.js';
import { EDGE_URLS_RECORDED_WITHIN_MS, type EdgeUrlRecorder } from './edge-url-recorder.js';
import { findEdgeUrls, type ServedUrl } from './edge-url-repository.js';
import { pruneStaleEdgeUrls } from './edge-url-retention.js';
import { purgeKeysOf } from './purge-keys.js';
import { PATHS_PER_PURGE, sendPurge } from './purge-sender.js';
import type { PurgeConfig } from './purge-target.js';

/** The kind purge targets are stored with among the webhooks' subscriptions. */
export const PURGE_KIND = 'purge';

export interface PurgeTargetDeps {
  db: Queryable;
  edgeUrls: EdgeUrlRecorder;
  /** The CDNs' API origins (Fastly, Cloudflare). */
  apis: { fastly: string; cloudflare: string };
}

/**
 * Purge targets (Fastly, Cloudflare, any HTTP cache) as a delivery target of the webhooks
 * machinery: a delivery's body is the surrogate keys its event makes stale — an event that makes
 * none stale (a draft saved) gives it no delivery — and an attempt sends the provider's purge
 * requests for them. The URLs recorded for `{path}` targets are pruned with the delivery history.
 */
export function createPurgeDeliveryTarget(deps: PurgeTargetDeps): DeliveryTarget {
  return {
    bodyOf(event) {
      const keys = purgeKeysOf(event);
      return keys.length === 0 ? null : JSON.stringify({ type: event.type, keys });
    },
    send: (d, sender) =>
      sendPurge(
        { sender, apis: deps.apis, urlsFor: (keys) => servedUrls(deps, d, keys) },
        d.settings as PurgeConfig, // what purge-target-service.ts stores with kind PURGE_KIND
        (JSON.parse(d.body) as { keys: string[] }).keys,
      ),
    prune: () => pruneStaleEdgeUrls(deps.db),
  };
}

/**
 * The URLs a `{path}` purge reaches, read once every URL served before the change is recorded: a
 * URL first served just before it may still wait in a recorder (this process's is written now,
 * another process's within `EDGE_URLS_RECORDED_WITHIN_MS` of the change, which made the delivery).
 */
async function servedUrls(deps: PurgeTargetDeps, d: DeliveryToSend, keys: readonly string[]): Promise<ServedUrl[]> {
  await deps.edgeUrls.flush();
  const wait = EDGE_URLS_RECORDED_WITHIN_MS - d.ageMs;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return findEdgeUrls(deps.db, d.orgId, keys, PATHS_PER_PURGE);
}
