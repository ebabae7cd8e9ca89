import type { Services } from '../services.js';

/** A revoked or rotated token leaves this instance's cache at once; the others' on the bus message or within the cache TTL. */
export async function forgetToken(services: Pick<Services, 'auth' | 'bus' | 'logger'>, requestId: string, tokenId: string, hash: Buffer): Promise<void> {
  services.auth.evict(hash);
  await services.bus.publish('token-revoked', { tokenId, hash: hash.toString('hex') }).catch((err: unknown) => {
    services.logger.warn({ err, requestId }, 'token cache eviction broadcast failed; other instances drop it within the cache TTL');
  });
}
