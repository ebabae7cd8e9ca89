import { Router, type NextFunction, type Request, type Response } from 'express';
import { ok } from '../../../shared/envelope.js';
import { isAppError, unauthenticated } from '../../../shared/errors/index.js';
import { openPending, PENDING_TTL_MS, sealPending } from '../../../shared/people/sso/pending-cookie.js';
import { ssoSettingsInputSchema, ssoStartQuerySchema } from '../../../shared/people/sso/sso-input.js';
import { finishSsoSignIn, startSsoSignIn, testSsoSignIn } from '../../../shared/people/sso/sso-sign-in.js';
import { getSsoSettings, publicSsoSettings, putSsoSettings, removeSsoSettings } from '../../../shared/people/sso/sso-settings-service.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireArea, tenantOf } from '../auth.js';
import { cookieOf, setSessionCookies } from './session-cookie.js';

/** The cookie holding a sign-in under way, sent back only to the callback. */
const PENDING_COOKIE = 'folio_sso';
const CALLBACK_PATH = '/auth/sso/callback';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A browser lands on the start and callback routes by navigation, so a refusal is a small page
 * saying why (a script asking for JSON gets the usual envelope).
 */
function answerFailure(req: Request, res: Response, next: NextFunction, err: unknown): void {
  if (!isAppError(err) || req.accepts(['json', 'html']) !== 'html') return next(err);
  res
    .status(err.status)
    .set('Cache-Control', 'no-store')
    .set('Content-Security-Policy', "default-src 'none'")
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in refused</title></head>` +
        `<body><h1>Sign-in refused</h1><p id="reason">${escapeHtml(err.reasons.join(' '))}</p></body></html>`,
    );
}

/** A test sign-in's page: who would sign in, with which role; nothing was written. */
function answerTest(res: Response, result: { email: string; role: string; member: boolean; returnTo: string }): void {
  const who = `${escapeHtml(result.email)} would sign in as ${escapeHtml(result.role)}${result.member ? ' (already a member)' : ' (a new member, made at the first real sign-in)'}.`;
  res
    .status(200)
    .set('Cache-Control', 'no-store')
    .set('Content-Security-Policy', "default-src 'none'")
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Single sign-on works</title></head>` +
        `<body><h1>Single sign-on works</h1><p id="result">${who}</p><p>This was a test: no member was made and no session opened.</p>` +
        `<p><a href="${escapeHtml(result.returnTo)}">Back</a></p></body></html>`,
    );
}

/** `/management/v1/sso` (the settings) and `/auth/sso/…` (signing in through the issuer). */
export function ssoRoutes(services: Services): Router {
  const r = Router();
  const sso = requireArea('sso');
  const answer = (slug: string) => (settings: Awaited<ReturnType<typeof getSsoSettings>>) => publicSsoSettings(settings, services.config.publicBaseUrl, slug);

  r.get('/management/v1/sso', sso, async (req, res) => {
    const { orgId, orgSlug } = tenantOf(req);
    res.json(ok(answer(orgSlug)(await getSsoSettings(services.db, orgId))));
  });

  r.put('/management/v1/sso', sso, async (req, res) => {
    const input = parseInput(ssoSettingsInputSchema, req.body, { what: 'single sign-on settings' });
    const { orgId, orgSlug } = tenantOf(req);
    const saved = await putSsoSettings(services, orgId, input);
    res.json(ok(answer(orgSlug)(saved), { messages: [`Register this redirect URI with the issuer's client: ${services.config.publicBaseUrl}${CALLBACK_PATH}`] }));
  });

  r.delete('/management/v1/sso', sso, async (req, res) => {
    await removeSsoSettings(services, tenantOf(req).orgId);
    res.json(ok({ deleted: true }));
  });

  r.get('/auth/sso/:organization/start', async (req, res, next) => {
    try {
      const { returnTo, test } = parseInput(ssoStartQuerySchema, req.query);
      const { redirect, pending } = await startSsoSignIn(services, String(req.params.organization), returnTo, { test: test !== undefined });
      res.cookie(PENDING_COOKIE, sealPending(services.secrets.signing, pending), {
        httpOnly: true,
        secure: req.secure,
        sameSite: 'lax',
        path: CALLBACK_PATH,
        maxAge: PENDING_TTL_MS,
      });
      res.set('Cache-Control', 'no-store').redirect(302, redirect.href);
    } catch (err) {
      answerFailure(req, res, next, err);
    }
  });

  r.get(CALLBACK_PATH, async (req, res, next) => {
    try {
      const pending = openPending(services.secrets.signing, cookieOf(req, PENDING_COOKIE));
      res.clearCookie(PENDING_COOKIE, { httpOnly: true, secure: req.secure, sameSite: 'lax', path: CALLBACK_PATH });
      if (!pending) throw unauthenticated('This sign-in was not started in this browser, or took longer than 10 minutes: start it again.');
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      if (pending.test) return answerTest(res, await testSsoSignIn(services, pending, query));
      const signed = await finishSsoSignIn(services, pending, query, { address: services.clientAddress(req), userAgent: req.headers['user-agent'] });
      setSessionCookies(req, res, signed.token, signed.csrfToken);
      res.set('Cache-Control', 'no-store').redirect(302, signed.returnTo);
    } catch (err) {
      answerFailure(req, res, next, err);
    }
  });

  return r;
}
