import { forbidden } from '../errors/index.js';
import type { TokenIdentity } from './context.js';

/** Where a request says it comes from: its `Origin` (browsers send it) and `Host` headers. */
export interface CallerOrigin {
  origin?: string;
  host?: string;
}

/**
 * An organization that lists its allowed origins refuses (403) a request whose `Origin` is not
 * one of them, whatever the token. Requests without `Origin` (servers, curl) and Folio's own pages
 * (GraphiQL: the origin's host is the request's `Host`) pass; an org without a list takes any
 * origin, since bearer tokens are never sent by a browser on its own.
 */
export function checkCallerOrigin(identity: TokenIdentity, caller: CallerOrigin | undefined): void {
  const origin = caller?.origin;
  if (!origin || identity.allowedOrigins === null || identity.allowedOrigins.includes(origin)) return;
  if (caller?.host && hostOf(origin) === caller.host.toLowerCase()) return;
  throw forbidden(`This organization does not accept requests from pages on ${origin}: it lists the origins it accepts (GET /management/v1/allowed-origins).`);
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}
