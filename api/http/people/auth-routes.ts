import { Router, type Request } from 'express';
import { ok } from '../../../shared/envelope.js';
import { acceptInvitationInputSchema, passwordResetInputSchema, passwordResetRequestSchema, signInInputSchema } from '../../../shared/people/people-input.js';
import { acceptInvitation, endSession, requestPasswordReset, resetPassword, signIn } from '../../../shared/people/people-service.js';
import { listSessions } from '../../../shared/people/session-repository.js';
import { describeMe } from '../../../shared/people/me.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireMember, requireSession, tenantOf } from '../auth.js';
import { clearSessionCookies, setSessionCookies } from './session-cookie.js';

/** `/auth/*`: accepting invitations, signing in and out, one's sessions, password resets. */
export function authRoutes(services: Services): Router {
  const r = Router();
  const memberOf = (req: Request) => tenantOf(req).member!;

  r.post('/auth/invitations/accept', async (req, res) => {
    const input = parseInput(acceptInvitationInputSchema, req.body);
    res.json(ok(await acceptInvitation(services, input), { messages: ['Welcome: sign in with POST /auth/sign-in.'] }));
  });

  r.post('/auth/sign-in', async (req, res) => {
    const input = parseInput(signInInputSchema, req.body);
    const signed = await signIn(services, input, { address: services.clientAddress(req), userAgent: req.headers['user-agent'] });
    setSessionCookies(req, res, signed.token, signed.csrfToken);
    res.json(ok({ token: signed.token, csrfToken: signed.csrfToken, session: signed.session, member: signed.member }));
  });

  r.post('/auth/sign-out', requireSession, async (req, res) => {
    const member = memberOf(req);
    await endSession(services, member, member.sessionId, tenantOf(req).orgId);
    clearSessionCookies(req, res);
    res.json(ok({ signedOut: true }));
  });

  r.get('/auth/me', requireMember, async (req, res) => {
    res.json(ok(await describeMe(services.db, tenantOf(req))));
  });

  r.get('/auth/sessions', requireSession, async (req, res) => {
    const member = memberOf(req);
    const sessions = await listSessions(services.db, member.id);
    res.json(ok(sessions.map((s) => ({ ...s, current: s.id === member.sessionId }))));
  });

  r.delete('/auth/sessions/:id', requireSession, async (req, res) => {
    await endSession(services, memberOf(req), String(req.params.id), tenantOf(req).orgId);
    res.json(ok({ id: req.params.id, revoked: true }));
  });

  r.post('/auth/password-reset', async (req, res) => {
    const { email } = parseInput(passwordResetRequestSchema, req.body);
    await requestPasswordReset(services, email);
    res.status(202).json(ok({ requested: true }, { messages: ['If this email has an account, a reset link is on its way (when this deployment sends mail).'] }));
  });

  r.post('/auth/password-reset/confirm', async (req, res) => {
    const input = parseInput(passwordResetInputSchema, req.body);
    await resetPassword(services, input);
    res.json(ok({ reset: true }, { messages: ['Password changed; every session of this account was ended.'] }));
  });

  return r;
}
