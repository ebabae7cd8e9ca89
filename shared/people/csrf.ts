import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The CSRF token of a session: an HMAC of the session token under the deployment's signing
 * secret. A page of another site cannot read it (it is returned at sign-in and in a cookie only
 * this site's scripts read), so a write that carries the session cookie without it is refused.
 */
export function csrfTokenOf(signing: Buffer, sessionToken: string): string {
  return createHmac('sha256', signing).update(`csrf:${sessionToken}`).digest('base64url');
}

export function isCsrfTokenOf(signing: Buffer, sessionToken: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(csrfTokenOf(signing, sessionToken));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
