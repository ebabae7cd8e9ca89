/**
 * Vendor cache results mapped to HIT or MISS; anything else (PASS, BYPASS, DYNAMIC,
 * ERROR, …) is kept upper-cased so it can still be told apart. Sources: Cloudflare
 * CacheCacheStatus, CloudFront x-edge-result-type, Fastly fastly_info.state, nginx
 * $upstream_cache_status, Akamai cacheStatus (1 = served from cache).
 */
const HIT = new Set([
  'HIT', 'REFRESHHIT', 'REFRESH_HIT', 'STALE', 'UPDATING', 'REVALIDATED', 'HIT-STALE', 'HIT-SYNTH',
  'HIT-CLUSTER', 'HIT-STALE-CLUSTER', 'HIT-WAIT', 'HIT-REFRESH', 'TCP_HIT', 'TCP_MEM_HIT', 'TCP_REFRESH_HIT', '1',
]);
const MISS = new Set(['MISS', 'EXPIRED', 'MISS-CLUSTER', 'MISS-WAIT', 'TCP_MISS', 'TCP_REFRESH_MISS', '0']);

export function normalizeCacheStatus(raw: unknown): string {
  if (raw === 'HIT' || raw === 'MISS') return raw;
  if (raw === undefined || raw === null) return '';
  const value = String(raw).trim().toUpperCase();
  if (value === '' || value === '-') return '';
  if (HIT.has(value)) return 'HIT';
  if (MISS.has(value)) return 'MISS';
  return value;
}
