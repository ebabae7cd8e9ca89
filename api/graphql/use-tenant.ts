import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { createDeliveryContext } from '../../shared/delivery/delivery-context.js';
import type { LiveChanges } from '../../shared/delivery/live-changes.js';
import { isCredentialLive } from '../../shared/tenancy/credential-liveness.js';
import { GraphQLError } from 'graphql';
import { isAppError } from '../../shared/errors/index.js';
import type { Services } from '../../shared/services.js';
import { publishableImageLimitsOf } from '../../shared/tenancy/delivery-settings.js';
import type { RequestStates } from './request-state.js';
import { resolveTenant, type ResolvedTenant } from './resolve-tenant.js';
import type { SchemaCache } from './schema-cache.js';
import type { MaskError } from './use-error-codes.js';

interface NodeServerContext {
  req?: IncomingMessage & { requestId?: string };
  /** Set by the fast lane when it hands a request back to yoga after resolving its tenant. */
  tenant?: ResolvedTenant;
  /** Set by the fast lane when resolving the tenant failed: answered as is, not tried again. */
  tenantError?: unknown;
}

/**
 * Resolves the request's tenant once (`resolveTenant`, unless the fast lane did already) and
 * puts the delivery context (db, org, scope, models, per-request DataLoaders) into the GraphQL
 * context.
 */
export function useTenant(deps: { services: Services; cache: SchemaCache; states: RequestStates; mask: MaskError; live?: LiveChanges }): Plugin {
  const { services, states, mask } = deps;
  const rateHeadersOf = new WeakMap<Request, Record<string, string>>();
  return {
    onResponse({ request, response }) {
      const headers = rateHeadersOf.get(request);
      if (headers) for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
    },
    onRequestParse({ request, serverContext }) {
      return {
        async onRequestParseDone() {
          const context = serverContext as NodeServerContext;
          const requestId = context.req?.requestId ?? randomUUID();
          try {
            if (context.tenantError !== undefined) throw context.tenantError;
            const client = context.req ? services.clientAddress(context.req as IncomingMessage) : undefined;
            const credentials = { authorization: request.headers.get('authorization') ?? undefined, urlToken: urlTokenOf(request.url) };
            const resolved = context.tenant ?? (await resolveTenant(deps, credentials, requestId, client, {
                origin: request.headers.get('origin') ?? undefined,
                host: request.headers.get('host') ?? undefined,
              }));
            rateHeadersOf.set(request, resolved.rateHeaders);
            states.set(request, resolved.state);
          } catch (err) {
            // A refusal carries its own headers (a 429 the rate-limit ones). A fault is masked
            // here, where the request id is known: a dependency outage (the database restarting)
            // keeps the 503 and Retry-After the mask gave it, anything else is a 500. Nothing was
            // executed.
            if (err instanceof GraphQLError || isAppError(err)) throw err;
            const masked = mask(err, requestId);
            throw new GraphQLError(masked.message, { extensions: { ...masked.extensions, http: masked.extensions.http ?? { status: 500 } } });
          }
        },
      };
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
          traffic: state.identity.scopes.includes('analytics') ? services.entryTraffic : null,
          imageLimits: publishableImageLimitsOf(state.identity),
          imageWatermark: state.identity.delivery.imageWatermark,
          live: deps.live ? { changes: deps.live, stillAdmitted: () => isCredentialLive(services.db, state.identity) } : undefined,
      });
      // Resolvers read the delivery context members straight from the GraphQL context.
      extendContext(delivery as unknown as Parameters<typeof extendContext>[0]);
    },
  };
}

/** The `access_token` query parameter of a GET (a publishable key); POST bodies carry none. */
export function urlTokenOf(url: string): string | null {
  const q = url.indexOf('?');
  return q === -1 ? null : new URLSearchParams(url.slice(q + 1)).get('access_token');
}
