import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PendingSignIn } from './oidc-client.js';

// A sign-in under way lives in the browser that started it: an HttpOnly cookie signed with the
// deployment's secret, holding the organization, state, nonce, PKCE verifier and where to return.
// Any instance can finish it, nothing is stored, and a callback in another browser (login CSRF)
// has no cookie, so it is refused.

export const PENDING_TTL_MS = 10 * 60_000;

export interface PendingCookie extends PendingSignIn {
  orgId: string;
  returnTo: string;
  /** Epoch milliseconds after which the attempt is refused. */
  expiresAt: number;
  /** A test sign-in (from the settings): checked, but no member is made and no session opened. */
  test?: boolean;
}

const mac = (signing: Buffer, payload: string) => createHmac('sha256', signing).update(`sso:${payload}`).digest('base64url');

export function sealPending(signing: Buffer, pending: PendingCookie): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${payload}.${mac(signing, payload)}`;
}

/** The pending sign-in of a cookie value, or null when absent, forged or expired. */
export function openPending(signing: Buffer, value: string | undefined, now = Date.now()): PendingCookie | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot < 0) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(signing, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingCookie;
    return typeof pending.expiresAt === 'number' && pending.expiresAt > now ? pending : null;
  } catch {
    return null;
  }
}
