import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { createDeliveryContext } from '../../shared/delivery/delivery-context.js';
import type { DeliveryScope } from '../../shared/delivery/filters/filter-env.js';
import { GraphQLError } from 'graphql';
import { isAppError } from '../../shared/errors/index.js';
import type { Services } from '../../shared/services.js';
import { authenticateBearer } from '../../shared/tenancy/authenticate.js';
import type { RequestStates } from './request-state.js';
import type { SchemaCache } from './schema-cache.js';
import type { MaskError } from './use-error-codes.js';

interface NodeServerContext {
  req?: { requestId?: string; headers?: Record<string, string | string[] | undefined> };
}

/** `preview` reads every status; `delivery` only published content (DESIGN §2). */
function scopeOf(scopes: string[]): DeliveryScope | null {
  if (scopes.includes('preview')) return 'preview';
  if (scopes.includes('delivery')) return 'delivery';
  return null;
}

const authError = (code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, headers: Record<string, string> = {}) =>
  new GraphQLError(message, { extensions: { code, http: { status: code === 'UNAUTHENTICATED' ? 401 : 403, headers } } });

/**
 * Resolves the bearer token to its org and scope once per request (the skeleton's
 * `authenticateBearer`), selects the org's cached schema and puts the delivery context (db,
 * org, scope, models, per-request DataLoaders) into the GraphQL context.
 */
export function useTenant(deps: { services: Services; cache: SchemaCache; states: RequestStates; mask: MaskError }): Plugin {
  const { services, cache, states, mask } = deps;
  const rateHeadersOf = new WeakMap<Request, Record<string, string>>();
  return {
    onResponse({ request, response }) {
      const headers = rateHeadersOf.get(request);
      if (headers) for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
    },
    onRequestParse({ request, serverContext }) {
      return {
        async onRequestParseDone() {
          const requestId = (serverContext as NodeServerContext).req?.requestId ?? randomUUID();
          try {
            await resolveTenant(requestId);
          } catch (err) {
            // A fault (the database gone, say) is masked here, where the request id is known, and
            // answered 500: nothing was executed.
            if (err instanceof GraphQLError || isAppError(err)) throw err;
            const masked = mask(err, requestId);
            throw new GraphQLError(masked.message, { extensions: { ...masked.extensions, http: { status: 500 } } });
          }
        },
      };
      async function resolveTenant(requestId: string) {
        let identity;
        try {
          identity = await authenticateBearer(services, request.headers.get('authorization') ?? undefined);
        } catch (err) {
          if (isAppError(err) && err.code === 'UNAUTHENTICATED') throw authError('UNAUTHENTICATED', err.message, err.headers);
          throw err;
        }
        const scope = scopeOf(identity.scopes);
        if (!scope) throw authError('FORBIDDEN', 'This token lacks the "delivery" or "preview" scope.');
        // The per-token rate limit of every API (DESIGN §2): 429 RATE_LIMITED with Retry-After.
        const rate = await services.rateLimiter.consume(identity.tokenId);
        const rateHeaders = { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining), 'RateLimit-Reset': String(rate.resetSeconds) };
        rateHeadersOf.set(request, rateHeaders);
        if (!rate.allowed) {
          throw new GraphQLError('Rate limit exceeded; retry later.', {
            extensions: { code: 'RATE_LIMITED', retryAfter: rate.retryAfterSeconds, http: { status: 429, headers: { ...rateHeaders, 'Retry-After': String(rate.retryAfterSeconds) } } },
          });
        }
        const org = await cache.get(identity.orgId);
        if (!org) throw authError('UNAUTHENTICATED', 'The organization of this token no longer exists.');
        states.set(request, { identity, scope, org, requestId });
      }
    },
    onEnveloped({ context, setSchema }) {
      const state = context?.request ? states.get(context.request) : undefined;
      if (state) setSchema(state.org.schema);
    },
    onContextBuilding({ context, extendContext }) {
      const state = states.get(context.request);
      if (!state) return;
      const delivery = createDeliveryContext({
          db: services.db,
          orgId: state.identity.orgId,
          scope: state.scope,
          models: state.org.models,
          signing: services.secrets.signing,
          publicBaseUrl: services.config.publicBaseUrl,
      });
      // Resolvers read the delivery context members straight from the GraphQL context.
      extendContext(delivery as unknown as Parameters<typeof extendContext>[0]);
    },
  };
}
