import type { Services } from '../services.js';

/**
 * A member's role changed or their membership ended: their cached sessions and personal tokens
 * (which carry the role) leave this instance's cache at once and the others' on the bus message,
 * or within the token cache's lifetime (TOKEN_CACHE_TTL_MS, at most 5 s) if the message is lost.
 */
export async function forgetMember(services: Pick<Services, 'auth' | 'bus' | 'logger'>, orgId: string, personId: string): Promise<void> {
  services.auth.evictMember(orgId, personId);
  await services.bus.publish('member-changed', { orgId, personId }).catch((err: unknown) => {
    services.logger.warn({ err, orgId }, 'member cache eviction broadcast failed; other instances drop it within the cache TTL');
  });
}
