import { assetFilesPrefix, originalsPrefix } from '../adapters/blobs/keys.js';
import type { EventBus } from '../adapters/bus/index.js';
import type { Logger } from '../logger.js';
import { forgetAsset } from './asset-read-cache.js';
import { evictAsset, type AssetCaches } from './asset-caches.js';

export interface AssetChange {
  orgId: string;
  assetId: string;
  /** The asset's bytes changed or went (new content, deletion): drop what memory holds of them. */
  bytes: boolean;
}

interface Caches {
  assetCaches: AssetCaches;
}

/** Forgets the asset in this process: its cached row, and with `bytes` its originals and derivatives in memory. */
function forgetHere(caches: Caches, change: AssetChange): void {
  forgetAsset(caches.assetCaches, change.orgId, change.assetId);
  if (change.bytes) evictAsset(caches.assetCaches, [originalsPrefix(change.orgId, change.assetId), assetFilesPrefix(change.orgId, change.assetId)]);
}

/**
 * After a committed change to an asset: forgotten here at once, and on every other instance
 * through the bus, so a deleted image stops being served from any instance's memory. A bus that
 * cannot publish delays the others until their caches expire (row cache seconds, bytes minutes);
 * it never fails the change, which is already committed.
 */
export async function announceAssetChange(deps: Caches & { bus?: EventBus; logger?: Logger }, change: AssetChange): Promise<void> {
  forgetHere(deps, change);
  await deps.bus?.publish('asset-changed', change).catch((err: unknown) => deps.logger?.warn({ err, ...change }, 'assets: change not announced to other instances'));
}

/** Keeps this process's asset caches in step with changes made on any instance. Returns the unsubscribe. */
export function followAssetChanges(deps: Caches & { bus: EventBus }): () => void {
  return deps.bus.subscribe('asset-changed', (change) => forgetHere(deps, change));
}
