import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { SESSION_TTL_MS } from '../../../shared/people/session-repository.js';

/** The browser's session: an HttpOnly cookie, and the CSRF token in one its scripts may read. */
export const SESSION_COOKIE = 'folio_session';
export const CSRF_COOKIE = 'folio_csrf';
/** The header a cookie-authenticated write must carry, holding the CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/** One cookie's value from the Cookie header, or undefined. */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Secure when the request came over TLS (directly, or through a trusted proxy saying so:
 * `req.secure` follows TRUST_PROXY), so a plain-HTTP development setup still works.
 */
export function setSessionCookies(req: Request, res: Response, token: string, csrf: string): void {
  const common = { secure: req.secure, sameSite: 'lax' as const, path: '/', maxAge: SESSION_TTL_MS };
  res.cookie(SESSION_COOKIE, token, { ...common, httpOnly: true });
  res.cookie(CSRF_COOKIE, csrf, { ...common, httpOnly: false });
}

export function clearSessionCookies(req: Request, res: Response): void {
  const common = { secure: req.secure, sameSite: 'lax' as const, path: '/' };
  res.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  res.clearCookie(CSRF_COOKIE, common);
}
