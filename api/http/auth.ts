import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError, forbidden, invalidToken, unauthenticated } from '../../shared/errors/index.js';
import type { Services } from '../../shared/services.js';
import type { TenantContext } from '../../shared/tenancy/context.js';
import type { Scope } from '../../shared/tenancy/scopes.js';
import { admitToken, bearerTokenOf, type Admitted } from '../../shared/tenancy/authenticate.js';

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
      token = bearerTokenOf(req.headers.authorization);
    } catch (err) {
      return next(err);
    }
    req.headers.authorization = `Bearer ${token}`;
    passport.authenticate('bearer', { session: false }, (err: unknown, admitted: Admitted | false, _challenge: unknown, status?: number) => {
      if (err) return next(err);
      if (!admitted) return next(status === 400 ? invalidToken('The Authorization header must be "Bearer <token>".') : unauthenticated());
      for (const [name, value] of Object.entries(admitted.rateHeaders)) res.setHeader(name, value);
      req.tenant = { ...admitted.identity, requestId: req.requestId };
      // what this request writes is recorded as this token's (the version history's author)
      services.actor.run(admitted.identity.tokenId, next);
    })(req, res, next);
  };

  return {
    authenticate,
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
      next();
    });
  };
}

/** Platform operator routes (`/admin/v1`). */
export const requireAdmin: RequestHandler = (req, res, next) => authenticatorOf(req).requireAdmin(req, res, next);

/** `/metrics`: the METRICS_TOKEN. */
export const requireMetricsToken: RequestHandler = (req, res, next) => authenticatorOf(req).requireMetricsToken(req, res, next);

/** The caller of a route behind `requireScope`. */
export function tenantOf(req: Request): TenantContext {
  if (!req.tenant) throw new AppError('INTERNAL', 'Route is missing its authentication middleware.');
  return req.tenant;
}
