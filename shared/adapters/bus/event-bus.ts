

/** Messages that cross instances: cache invalidations. */
export interface BusMessages {
  'schema-changed': { orgId: string; schemaVersion: number };
  'token-revoked': { tokenId: string; hash: string };
  /** A member's session was revoked (signed out, revoked from the list, password reset). */
  'session-revoked': { sessionId: string; hash: string };
  /** A member's role changed or their membership ended: drop their cached sessions and personal tokens. */
  'member-changed': { orgId: string; personId: string };
  /** An organization was suspended, resumed or marked for deletion: re-read the suspended ones. */
  'organization-suspended': { orgId: string };
  'content-changed': { orgId: string; contentVersion: number };
  /** An asset's row changed; with `bytes`, its content too (replaced or deleted). */
  'asset-changed': { orgId: string; assetId: string; bytes: boolean };
}
export type BusTopic = keyof BusMessages;
export type BusHandler<T extends BusTopic> = (message: BusMessages[T]) => void;

/**
 * Publish/subscribe between the instances of a deployment: Redis pub/sub when REDIS_URL is set,
 * otherwise in-process only. Handlers also run for messages published by the same instance.
 */
export interface EventBus {
  readonly kind: 'redis' | 'local';
  publish<T extends BusTopic>(topic: T, message: BusMessages[T]): Promise<void>;
  /** Returns a function that removes the handler. */
  subscribe<T extends BusTopic>(topic: T, handler: BusHandler<T>): () => void;
  close(): Promise<void>;
}
