import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point. A receiver URL is the one place where a tenant makes Folio open a
 * connection of the tenant's choosing, so loopback, private, link-local (cloud metadata at
 * 169.254.169.254), shared, multicast and reserved addresses are refused — checked on the
 * addresses the name resolves to, at creation and again on every delivery, by the very lookup the
 * connection uses (a name that resolves elsewhere the second time still cannot reach inside).
 */

export class TargetRefused extends Error {}

/** `ipaddr.js` ranges a delivery may reach: the public internet only. */
const PUBLIC_RANGES = new Set(['unicast']);

/**
 * Why `address` may not be reached, or null. An IPv6 address that carries an IPv4 one is judged
 * by the IPv4 address: IPv4-mapped (`::ffff:127.0.0.1`) and IPv4-compatible (`::127.0.0.1`, the
 * whole `::/96`, deprecated by RFC 4291 but still routed to the IPv4 address by some stacks),
 * which `ipaddr.js` would call plain unicast. NAT64 (64:ff9b::/96), 6to4 and Teredo addresses are
 * special ranges of their own and refused as such.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const compatible = v6.parts.slice(0, 6).every((p) => p === 0) && (v6.parts[6] !== 0 || v6.parts[7] > 1);
    if (v6.isIPv4MappedAddress() || compatible) parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
  }
  const range = parsed.range();
  return PUBLIC_RANGES.has(range) ? null : `${address} is a ${range} address`;
}

/** The shape rules of a receiver URL: http(s), a host, no credentials. Returns the problems. */
export function urlProblems(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['url: must be an absolute http or https URL'];
  }
  const problems: string[] = [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push('url: only http and https URLs are accepted');
  if (url.username || url.password) problems.push('url: must not carry credentials (the signature authenticates Folio)');
  if (!url.hostname) problems.push('url: must name a host');
  return problems;
}

/**
 * A `lookup` for `http.request`: resolves as usual, then refuses the connection unless every
 * address is public (or `allowPrivate`). A literal IP never reaches a lookup, so `checkHost`
 * covers it before the request.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? null : addresses.map((a) => refusedAddress(a.address)).find((r) => r !== null);
      if (refused) return callback(new TargetRefused(`${hostname} resolves to ${refused}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Checks where `url` leads now: a literal address directly, a name through DNS. */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refused = allowPrivate ? null : refusedAddress(host);
    if (refused) throw new TargetRefused(refused);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    guardedLookup(allowPrivate)(host, { all: true }, (err) => (err ? reject(err instanceof TargetRefused ? err : new TargetRefused(`${host} does not resolve (${err.message})`)) : resolve()));
  });
}
