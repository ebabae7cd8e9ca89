import { GraphQLError } from 'graphql';
import type { DeliveryScope } from '../../shared/delivery/filters/filter-env.js';
import { isAppError } from '../../shared/errors/index.js';
import type { Services } from '../../shared/services.js';
import type { CallerOrigin } from '../../shared/tenancy/allowed-origins.js';
import { admitToken, credentialOf } from '../../shared/tenancy/authenticate.js';
import type { RequestState } from './request-state.js';
import type { SchemaCache } from './schema-cache.js';
import { modelViewOf } from '../../shared/people/model-view.js';
import { hasRole, policyActorOf } from '../../shared/people/policy.js';

/** A request's tenant: who asks, with which schema, and the rate-limit headers of its answer. */
export interface ResolvedTenant {
  state: RequestState;
  rateHeaders: Record<string, string>;
  /** The token came in the URL (a publishable key): the response may be cached publicly. */
  tokenInUrl: boolean;
}

/** `preview` reads every status; `delivery` only published content. */
function scopeOf(scopes: string[]): DeliveryScope | null {
  if (scopes.includes('preview')) return 'preview';
  if (scopes.includes('delivery')) return 'delivery';
  return null;
}

const authError = (code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, headers: Record<string, string> = {}) =>
  new GraphQLError(message, { extensions: { code, http: { status: code === 'UNAUTHENTICATED' ? 401 : 403, headers } } });

const rateLimitedError = (message: string, retryAfter: number, headers: Record<string, string> = {}) =>
  new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', retryAfter, http: { status: 429, headers: { ...headers, 'Retry-After': String(retryAfter) } } } });

/**
 * Resolves the request's token (`credentialOf`: the Authorization header, or a publishable key in
 * the URL) to its org and scope through `admitToken`, the path REST takes too
 * (verification, the failed-attempt limit per client address, one unit of the token's rate
 * limit), and selects the org's cached schema. Refusals are GraphQLErrors carrying their HTTP
 * status; anything else (the database gone) is thrown as is.
 */
export async function resolveTenant(
  deps: { services: Services; cache: SchemaCache },
  credentials: { authorization: string | undefined; urlToken: string | null },
  requestId: string,
  client?: string,
  caller?: CallerOrigin,
): Promise<ResolvedTenant> {
  const { services, cache } = deps;
  let admitted;
  let credential;
  try {
    credential = credentialOf(credentials.authorization, credentials.urlToken);
    admitted = await admitToken(services, credential.token, client, caller);
  } catch (err) {
    if (isAppError(err) && err.code === 'UNAUTHENTICATED') throw authError('UNAUTHENTICATED', err.message, err.headers);
    if (isAppError(err) && err.code === 'FORBIDDEN') throw authError('FORBIDDEN', err.message);
    if (isAppError(err) && err.code === 'RATE_LIMITED') throw rateLimitedError(err.message, err.retryAfter ?? 1, err.headers);
    throw err;
  }
  const { identity, rateHeaders } = admitted;
  const scope = scopeOf(identity.scopes);
  if (!scope) throw authError('FORBIDDEN', 'This token lacks the "delivery" or "preview" scope.', rateHeaders);
  const whole = await cache.get(identity.orgId);
  if (!whole) throw authError('UNAUTHENTICATED', 'The organization of this token no longer exists.');
  // a member (or a token with a role) whose role hides fields or models reads the schema as the role sees it
  const view = hasRole(identity) ? modelViewOf(policyActorOf(identity)) : null;
  const org = view ? cache.view(whole, view) : whole;
  return { state: { identity, scope, org, requestId }, rateHeaders, tokenInUrl: credential.inUrl };
}
