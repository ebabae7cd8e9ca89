import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Whether the hop at `address` (`i` hops from the socket) is a proxy of ours. */
export type TrustProxy = (address: string, i: number) => boolean;

/**
 * TRUST_PROXY, read as Express reads its 'trust proxy' setting: `true` / `false`, a number of
 * hops, or a comma-separated list of addresses, CIDR ranges and the names `loopback`,
 * `linklocal`, `uniquelocal`. The default trusts proxies on private networks only, so a client
 * that reaches Folio directly cannot choose its address with an X-Forwarded-For header.
 */
export function compileTrustProxy(setting: string): TrustProxy {
  const value = setting.trim().toLowerCase();
  if (value === 'true') return () => true;
  if (value === 'false' || value === '') return () => false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, i) => i < hops;
  }
  return proxyaddr.compile(value.split(',').map((v) => v.trim()));
}

/**
 * The caller's address: the nearest hop that is not a trusted proxy (the socket's peer, then
 * X-Forwarded-For from the right). One reading for REST, GraphQL and the logs; it keys the
 * limit on failed authentication.
 */
export function createClientAddress(trust: TrustProxy): (req: IncomingMessage) => string {
  return (req) => proxyaddr(req, trust) || 'unknown';
}
