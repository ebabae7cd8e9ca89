import { createYoga, type GraphiQLOptions, type YogaServerInstance } from 'graphql-yoga';
import type { Services } from '../../shared/services.js';
import { createFastLane, type FastLane } from './fast-lane.js';
import type { RequestStates } from './request-state.js';
import { SchemaCache } from './schema-cache.js';
import { GRAPHIQL_PLACEHOLDER_AUTHORIZATION } from './graphiql-placeholder.js';
import { useCompressedGraphiql } from './use-compressed-graphiql.js';
import { useBodyLimit } from './use-body-limit.js';
import { useCost } from './use-cost.js';
import { createMaskError, useErrorCodes, useMaskedResultErrors } from './use-error-codes.js';
import { useJit, type JitStats } from './use-jit.js';
import { useLimits } from './use-limits.js';
import { usePersistedDocuments } from './use-persisted-documents.js';
import { useResponseCache, type ResponseCacheStats } from './use-response-cache.js';
import { useTenant } from './use-tenant.js';
import { createLiveChanges, type LiveChanges } from '../../shared/delivery/live-changes.js';

export interface GraphqlServer {
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
  /** Takes the common JSON POST (see `createFastLane`); false: yoga takes the request. */
  fastLane: FastLane['handle'];
  fastLaneStats: FastLane['stats'];
  jitStats: JitStats;
  responseCacheStats: ResponseCacheStats;
  cache: SchemaCache;
  /** Entry changes feeding the subscriptions open on this instance. */
  live: LiveChanges;
}

/** How the delivery server is put together; the defaults are what production runs. */
export interface GraphqlServerOptions {
  cache?: SchemaCache;
  /**
   * Reuse results per org content version.
   * @default true
   */
  responseCache?: boolean;
  /**
   * Run the common JSON POST on yoga's envelop without its HTTP layer (`createFastLane`).
   * @default true
   */
  fastLane?: boolean;
  /**
   * Executions of a document before graphql-jit compiles it (`useJit`); 0 compiles at once.
   * @default 1
   */
  jitAfter?: number;
}

/**
 * The GraphQL delivery server: graphql-yoga with the org's generated schema per
 * request. GraphiQL is served from bundled assets (no CDN) to browsers on GET /graphql.
 */
export function createGraphqlServer(services: Services, options: GraphqlServerOptions = {}): GraphqlServer {
  const cache = options.cache ?? new SchemaCache({ db: services.db, bus: services.bus });
  const states: RequestStates = new WeakMap();
  const mask = createMaskError(services.logger);
  const jitStats: JitStats = { compiled: 0, executed: 0 };
  const responseCacheStats: ResponseCacheStats = { keysHashed: 0 };
  const live = createLiveChanges({ db: services.db, eventFeed: services.eventFeed, onError: (err) => services.logger.warn({ err }, 'reading committed events for subscriptions failed') });
  const yoga = createYoga<Record<string, unknown>>({
    graphqlEndpoint: '/graphql',
    landingPage: false,
    batching: false,
    // the GraphQL-over-HTTP persisted-documents parameter (usePersistedDocuments)
    extraParamNames: ['documentId'],
    multipart: false,
    cors: false,
    // counted by useBodyLimit, which trusts a valid Content-Length instead of re-counting the bytes
    maxRequestBodySize: false,
    logging: false,
    renderGraphiQL: renderGraphiQLLazily,
    graphiql: {
      title: 'Folio GraphQL',
      // The schema is the organization's: nothing shows until a token is in the headers.
      headers: JSON.stringify({ Authorization: GRAPHIQL_PLACEHOLDER_AUTHORIZATION }, null, 2),
      defaultQuery: GRAPHIQL_FIRST_QUERY,
    },
    maskedErrors: { maskError: (error) => mask(error) },
    plugins: [
      // 1. who is asking: token → org, scope, schema, delivery context
      useTenant({ services, cache, states, mask, live }),
      // 1b. a document named by id (persisted queries, trusted documents) becomes its text
      usePersistedDocuments({ documents: services.documents, states }),
      // 2. document limits before parsing/validation work grows: size, tokens, depth, aliases, directives
      useLimits(states),
      // 3. cost (and limit/offset arguments) before execution; `extensions.cost` after
      useCost(states),
      // 4. repeated reads of unchanged content answered from memory (after the cost check)
      options.responseCache !== false && useResponseCache({ versions: services.contentVersions, states, stats: responseCacheStats }),
      // 5. a document without variables, once it repeats, runs as a compiled function
      useJit({ after: options.jitAfter, stats: jitStats }),
      // 6. extensions.code for parse and validation errors
      useErrorCodes(),
      // 7. unexpected execution errors masked, with the request id
      useMaskedResultErrors(mask, states),
      // 8. the body limit, last: it wraps whichever request parser was chosen
      useBodyLimit(services.config.limits.bodyBytes),
      // 9. the GraphiQL page, 9 MB of HTML, sent compressed
      useCompressedGraphiql(),
    ].filter((p) => p !== false),
  });
  const server = yoga as unknown as GraphqlServer['yoga'];
  const lane: FastLane =
    options.fastLane === false
      ? { handle: () => false, stats: { answered: 0, fromMemory: 0, handedOver: 0 } }
      : createFastLane({ yoga: server, services, cache, states, mask, bodyLimit: services.config.limits.bodyBytes, responseCache: options.responseCache !== false });
  return { yoga: server, fastLane: lane.handle, fastLaneStats: lane.stats, jitStats, responseCacheStats, cache, live };
}

/** What GraphiQL opens with: where the token goes, since the schema depends on it. */
const GRAPHIQL_FIRST_QUERY = `# Folio's GraphQL schema is generated from your organization's models, so it
# depends on the token:
#
# 1. Open "Headers" below and replace <delivery or preview token> with a token
#    of your organization (a delivery token reads published content, a preview
#    token every status). The demo's tokens are printed when Folio starts.
# 2. Re-fetch the schema: the ⟳ button in the sidebar, or Shift-Ctrl-R.
# 3. Run the query (Ctrl-Enter); the Docs panel then lists your models.
{
  entryCollection(limit: 5) {
    total
    items { id system { title publishedAt } }
  }
}
`;

/**
 * GraphiQL's bundle is a 9 MB module whose source and string stay in the heap once imported
 * (33 MB, 170 ms to load, measured here): loaded on the first browser visit instead of at the
 * start of every API process, most of which never serve it.
 */
let graphiql: Promise<typeof import('@graphql-yoga/render-graphiql')> | undefined;
async function renderGraphiQLLazily(options: GraphiQLOptions): Promise<string> {
  graphiql ??= import('@graphql-yoga/render-graphiql');
  return (await graphiql).renderGraphiQL(options);
}
