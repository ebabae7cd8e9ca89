import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { Kind, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { print } from 'graphql';
import type { ContentVersions } from '../../shared/delivery/content-versions.js';
import { surrogateKeysOf, type ReadSet } from '../../shared/edge/surrogate-keys.js';
import { imageLimitsKey } from '../../shared/tenancy/delivery-settings.js';
import type { RequestState, RequestStates } from './request-state.js';

export interface ResponseCacheOptions {
  versions: ContentVersions;
  states: RequestStates;
  /** @default 5000 responses */
  max?: number;
  /** @default 64 MiB of serialized responses */
  maxBytes?: number;
  /** Counts the request keys hashed (see `useResponseCache`). */
  stats?: ResponseCacheStats;
}

export interface ResponseCacheStats {
  /** Request keys serialized and hashed: once per schema, document, scope and operation without variables. */
  keysHashed: number;
}

/**
 * Response cache: a result is reused for the same org, schema version, content
 * version, scope, publishable-key image limits, document, variables and operation. Every content write bumps the org's
 * content version in its own transaction, and the version is looked up before every cacheable
 * execution (in memory while this process hears every bump, see ContentVersions; else one
 * primary-key read), so a write is visible to the next request; old entries age
 * out of the LRU. Only error-free results are kept, and none that read traffic figures; a request
 * becomes cacheable when it repeats.
 */
export function useResponseCache(options: ResponseCacheOptions): Plugin {
  const lru = new LRUCache<string, { result: ExecutionResult; size: number; keys: readonly string[] }>({
    max: options.max ?? 5000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (v) => v.size,
  });
  const seen = new LRUCache<string, true>({ max: (options.max ?? 5000) * 4 });
  const stats = options.stats ?? { keysHashed: 0 };
  // The key of a request without variables, by org schema (one per org and schema version) and
  // document (yoga's parsed object for one text): serializing and hashing it anew was a twentieth
  // of a cached answer's CPU. Scope and operation name complete it.
  const fixedKeys = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, string>>>();
  const hashed = (request: unknown[]) => {
    stats.keysHashed++;
    return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as ResponseCacheContext;
      const state = options.states.get(ctx.request);
      if (!state) return;
      // A publishable key held to image limits gets other image URLs (or errors) than other tokens.
      const limits = imageLimitsKey(state.identity);
      const keyOf = () =>
        hashed([state.identity.orgId, state.org.schemaVersion, state.org.view ?? null, state.scope, limits, ctx.params?.query ?? print(args.document), args.variableValues ?? null, args.operationName ?? null]);
      let base: string;
      if (args.variableValues == null && args.schema === state.org.schema && namesAnOperation(args.document, args.operationName)) {
        let byDocument = fixedKeys.get(args.schema);
        if (!byDocument) fixedKeys.set(args.schema, (byDocument = new WeakMap()));
        let byScope = byDocument.get(args.document);
        if (!byScope) byDocument.set(args.document, (byScope = new Map()));
        const which = `${state.scope}\n${state.org.view ?? ''}\n${args.operationName ?? ''}\n${limits}`;
        const known = byScope.get(which);
        base = known ?? keyOf();
        if (known === undefined) byScope.set(which, base);
      } else {
        base = keyOf();
      }
      // Admission: a request is cached from its second occurrence on, so one-off requests
      // (unique variables) cost no version lookup and take no cache space.
      if (!seen.has(base)) {
        seen.set(base, true);
        return;
      }
      const orgId = state.identity.orgId;
      const version = options.versions.known(orgId) ?? (await options.versions.read(orgId));
      if (version === null) return;
      const key = `${base}:${version}`;
      const hit = lru.get(key);
      if (hit) {
        // the surrogate keys of what its execution read
        if (ctx.reads) ctx.reads.fromCache = hit.keys;
        ctx.responseCacheHit = { version };
        return setResultAndStopExecution(hit.result);
      }
      return {
        onExecuteDone({ result }) {
          if (!result || typeof result !== 'object' || Symbol.asyncIterator in result) return;
          const r = result as ExecutionResult;
          if (r.errors?.length) return;
          // traffic figures change without a content write, which is what keys this cache
          if (ctx.reads?.traffic) return;
          const keys = ctx.reads ? surrogateKeysOf(state.identity.orgId, ctx.reads) : [];
          lru.set(key, { result: r, size: JSON.stringify(r).length, keys });
        },
      };
    },
  };
}

/** The GraphQL context as this plugin reads it; `responseCacheHit` is set when it answered. */
export interface ResponseCacheContext {
  request: Request;
  params?: { query?: string };
  reads?: ReadSet;
  /** The content version the answer was cached under (the fast lane keeps the answer's bytes for it). */
  responseCacheHit?: { version: number };
}

/**
 * What, besides the request itself, decides a cached answer: organization, schema version, view,
 * scope and a publishable key's image limits (the same for the plugin's keys and the fast lane's).
 */
export function responseCacheScope(state: RequestState): string {
  return `${state.identity.orgId}\n${state.org.schemaVersion}\n${state.org.view ?? ''}\n${state.scope}\n${imageLimitsKey(state.identity)}`;
}

/** No name, or the name of one of the document's operations (a client cannot grow a map with made-up ones). */
const namesAnOperation = (document: DocumentNode, name: string | null | undefined) =>
  name == null || document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
