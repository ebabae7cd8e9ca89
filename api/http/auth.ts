import type { Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError, forbidden, invalidToken, unauthenticated } from '../../shared/errors/index.js';
import type { Services } from '../../shared/services.js';
import type { TenantContext } from '../../shared/tenancy/context.js';
import type { Scope } from '../../shared/tenancy/scopes.js';
import { admitToken, bearerTokenOf, type Admitted } from '../../shared/tenancy/authenticate.js';
import { isCsrfTokenOf } from '../../shared/people/csrf.js';
import { changedNamesOf } from '../../shared/audit/audit-actor.js';
import { authorize, hasRole, policyActorOf } from '../../shared/people/policy.js';
import { authorizeRequest, shapesReads } from '../../shared/people/request-policy.js';
import { shapeEntryResult } from '../../shared/people/read-shaping.js';
import type { SettingsArea } from '../../shared/people/roles.js';
import { CSRF_HEADER, SESSION_COOKIE, cookieOf } from './people/session-cookie.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authentication is passport with the HTTP bearer strategy. Tokens are accepted only in the
 * Authorization header (never the query string, where they would end up in access logs).
 */
export function createAuthenticator(services: Services) {
  const passport = new Passport();
  passport.use(
    new BearerStrategy({ passReqToCallback: true }, (req: Request, token: string, done: (err: unknown, admitted?: Admitted | false) => void) => {
      // passport-http-bearer also reads `access_token` from the query string and the body; only
      // the (normalized) header may carry a token, whatever else the request holds.
      if (req.headers.authorization !== `Bearer ${token}`) return done(invalidToken('Send the token in the Authorization header as "Bearer <token>".'));
      admitToken(services, token, services.clientAddress(req), { origin: req.headers.origin, host: req.headers.host }).then(
        (admitted) => done(null, admitted),
        (err: unknown) => done(err),
      );
    }),
  );

  /**
   * Resolves the caller into `req.tenant` through `admitToken`, the path GraphQL takes too (401, or
   * 429 past the failed-attempt or the per-token limit), and writes the `RateLimit-*` headers.
   */
  const authenticate: RequestHandler = (req, res, next) => {
    // The one parser (shared with GraphQL) reads the header; passport gets it in the one form it
    // parses, so "Bearer  <token>" and "bearer <token>" work here as they do on /graphql.
    let token: string;
    try {
      token = credentialOfRequest(req);
    } catch (err) {
      return next(err);
    }
    req.headers.authorization = `Bearer ${token}`;
    passport.authenticate('bearer', { session: false }, (err: unknown, admitted: Admitted | false, _challenge: unknown, status?: number) => {
      if (err) return next(err);
      if (!admitted) return next(status === 400 ? invalidToken('The Authorization header must be "Bearer <token>".') : unauthenticated());
      for (const [name, value] of Object.entries(admitted.rateHeaders)) res.setHeader(name, value);
      req.tenant = { ...admitted.identity, requestId: req.requestId };
      // what this request writes is recorded as this token's or member's (the version history, the audit log)
      const member = admitted.identity.member;
      services.actor.run(
        {
          type: member ? 'member' : 'token',
          id: member ? member.id : admitted.identity.tokenId,
          name: member ? member.email : '',
          requestId: req.requestId,
          clientAddress: services.clientAddress(req),
          userAgent: req.headers['user-agent'],
          changes: SAFE_METHODS.has(req.method) ? undefined : changedNamesOf(req.body),
        },
        next,
      );
    })(req, res, next);
  };

  /**
   * The bearer token of the Authorization header; without one, the session cookie — and then a
   * write must carry the session's CSRF token in X-CSRF-Token (403 otherwise), since a browser
   * sends the cookie with requests other sites make it send.
   */
  const credentialOfRequest = (req: Request): string => {
    const session = req.headers.authorization === undefined ? cookieOf(req, SESSION_COOKIE) : undefined;
    if (session === undefined) return bearerTokenOf(req.headers.authorization);
    if (!SAFE_METHODS.has(req.method)) {
      const given = req.headers[CSRF_HEADER];
      if (!isCsrfTokenOf(services.secrets.signing, session, typeof given === 'string' ? given : undefined)) {
        throw forbidden('A write authenticated by the session cookie must carry the X-CSRF-Token header (the csrfToken of sign-in, also in the folio_csrf cookie).');
      }
    }
    return session;
  };

  /** The member's role on this request (403 when refused), and their view of the entries it answers. */
  const enforceRole = async (req: Request, res: Response): Promise<void> => {
    const actor = policyActorOf(req.tenant!);
    await authorizeRequest(services.db, req.tenant!.orgId, actor, { method: req.method, path: req.path, body: req.body });
    if (!req.path.startsWith('/management/v1/entries') || !shapesReads(actor)) return;
    const json = res.json.bind(res);
    res.json = (body: { result?: unknown } | null) => {
      if (!body || res.statusCode >= 400 || !('result' in body)) return json(body);
      const shaped = shapeEntryResult(actor, body.result);
      if (shaped === 'refused') {
        res.status(403);
        return json({ success: false, errors: ['Your role may not read entries of this model.'], messages: [], result: null, resultInfo: null });
      }
      return json({ ...body, result: shaped.result });
    };
  };

  return {
    authenticate,
    enforceRole,
    /** Platform operator routes: the PLATFORM_ADMIN_TOKEN. */
    requireAdmin: requireOperatorToken(() => services.adminToken, {
      closed: 'The admin API is disabled: set PLATFORM_ADMIN_TOKEN (32+ characters) to enable it.',
      invalid: 'The platform admin token is invalid.',
    }),
    /**
     * Prometheus metrics name every route, queue and failure count: operators only, with the
     * METRICS_TOKEN as a bearer token (Prometheus' `authorization` / `bearer_token_file`).
     */
    requireMetricsToken: requireOperatorToken(() => services.config.metricsToken, {
      closed: 'Metrics are closed: set METRICS_TOKEN and scrape with "Authorization: Bearer <METRICS_TOKEN>".',
      invalid: 'The metrics token is invalid.',
    }),
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

/**
 * A route for the deployment's operator, behind a secret of the deployment (not of an
 * organization), compared in constant time. Without the secret configured the route is closed:
 * 403 saying how to open it, since no token could do (a wrong one is 401).
 */
function requireOperatorToken(expected: () => string | undefined, messages: { closed: string; invalid: string }): RequestHandler {
  return (req, _res, next) => {
    const secret = expected();
    if (!secret) return next(forbidden(messages.closed));
    let token: string;
    try {
      token = bearerTokenOf(req.headers.authorization);
    } catch (err) {
      return next(err);
    }
    next(sameSecret(token, secret) ? undefined : invalidToken(messages.invalid));
  };
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

const authenticatorOf = (req: Request): Authenticator => req.app.locals.auth as Authenticator;

/** 401 without a valid token, 403 when the token lacks `scope`; sets `req.tenant`. */
export function requireScope(scope: Scope): RequestHandler {
  return (req, res, next) => {
    authenticatorOf(req).authenticate(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (!req.tenant!.scopes.includes(scope)) return next(forbidden(`This token lacks the "${scope}" scope.`));
      if (!hasRole(req.tenant!)) return next();
      // a member or a token with a role: the one policy decides this request, and shapes the entries it answers
      authenticatorOf(req).enforceRole(req, res).then(() => next(), next);
    });
  };
}

/**
 * A settings area of the management API (members, tokens, webhooks, models, analytics): a token
 * with the manage scope, or a member whose role covers the area; 403 otherwise.
 */
export function requireArea(area: SettingsArea): RequestHandler {
  const manage = requireScope('manage');
  return (req, res, next) => {
    manage(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        authorize(policyActorOf(req.tenant!), { kind: 'settings', area });
        next();
      } catch (refused) {
        next(refused);
      }
    });
  };
}

/** Routes of a member (`/auth/me`): a session, by bearer or cookie, or a personal access token; 403 for API tokens. */
export const requireMember: RequestHandler = (req, res, next) => {
  authenticatorOf(req).authenticate(req, res, (err?: unknown) => {
    if (err) return next(err);
    if (!req.tenant!.member) return next(forbidden("This route is a member's: sign in (POST /auth/sign-in) and use the session, not an API token."));
    next();
  });
};

/**
 * Routes managing a member's account (sessions, second factor, personal access tokens): a session
 * only, so a leaked personal access token cannot make more of itself or turn the factor off.
 */
export const requireSession: RequestHandler = (req, res, next) => {
  requireMember(req, res, (err?: unknown) => {
    if (err) return next(err);
    if (req.tenant!.member!.credential !== 'session') return next(forbidden('This route needs a signed-in session (POST /auth/sign-in), not a personal access token.'));
    next();
  });
};

/** Platform operator routes (`/admin/v1`). */
export const requireAdmin: RequestHandler = (req, res, next) => authenticatorOf(req).requireAdmin(req, res, next);

/** `/metrics`: the METRICS_TOKEN. */
export const requireMetricsToken: RequestHandler = (req, res, next) => authenticatorOf(req).requireMetricsToken(req, res, next);

/** The caller of a route behind `requireScope`. */
export function tenantOf(req: Request): TenantContext {
  if (!req.tenant) throw new AppError('INTERNAL', 'Route is missing its authentication middleware.');
  return req.tenant;
}
