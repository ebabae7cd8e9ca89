import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { variantOf } from '../../shared/edge/edge-variant.js';
import { surrogateKeysOf, type ReadSet } from '../../shared/edge/surrogate-keys.js';
import { jsonShapeProblem } from '../../shared/json-depth.js';
import type { Services } from '../../shared/services.js';
import { markShareable } from '../http/request-context.js';
import { cacheControlOf, corsAndVaryOf, etagOf, matchesIfNoneMatch, surrogateKeyHeaders } from './http-caching.js';
import { resolveDocumentText } from './persisted-query.js';
import { graphqlMediaTypeOf, type GraphqlMediaType } from './accept.js';
import type { RequestStates } from './request-state.js';
import { resolveTenant, type ResolvedTenant } from './resolve-tenant.js';
import type { SchemaCache } from './schema-cache.js';
import type { MaskError } from './use-error-codes.js';
import { VARIABLE_LIMITS } from './use-limits.js';
import { responseCacheScope, type ResponseCacheContext } from './use-response-cache.js';
import { urlTokenOf } from './use-tenant.js';

type MediaType = GraphqlMediaType;

interface Params {
  query?: string | null;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
  documentId?: string | null;
}

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions', 'documentId']);

const normalized = (header: string | undefined) => (header ?? '').replace(/\s/g, '').toLowerCase();
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The body (or a GET's parameters) as GraphQL parameters yoga would accept once the document is
 * known; null for anything else. The text may be missing when the request names a document.
 */
function plainParams(body: unknown): Params | null {
  if (!isPlainObject(body)) return null;
  for (const key of Object.keys(body)) if (!PARAM_NAMES.has(key)) return null;
  const { query, variables, operationName, extensions, documentId } = body;
  if (query !== undefined && query !== null && typeof query !== 'string') return null;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  // yoga's limits refuse them (and say why)
  if (variables && jsonShapeProblem(variables, VARIABLE_LIMITS)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (extensions !== undefined && extensions !== null && (!isPlainObject(extensions) || jsonShapeProblem(extensions, VARIABLE_LIMITS))) return null;
  if (documentId !== undefined && documentId !== null && typeof documentId !== 'string') return null;
  return body as Params;
}

/**
 * A GET's parameters, as `plainParams` takes a body: `variables` and `extensions` are JSON (a
 * GraphQLError, 400, when they are not); other parameters are ignored, as yoga does.
 */
function getParams(url: string): Params | null {
  const search = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  const out: Record<string, unknown> = {};
  for (const key of PARAM_NAMES) {
    const value = search.get(key);
    if (value === null) continue;
    if (key !== 'variables' && key !== 'extensions') out[key] = value;
    else {
      try {
        out[key] = JSON.parse(value) as unknown;
      } catch {
        throw new GraphQLError(`The "${key}" parameter must be JSON.`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
      }
    }
  }
  return plainParams(out);
}

export interface FastLaneDeps {
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
  services: Services;
  cache: SchemaCache;
  states: RequestStates;
  mask: MaskError;
  bodyLimit: number;
  /** The response cache is on: its answers to POSTs are kept as bytes too (see `answers`). */
  responseCache: boolean;
}

export interface FastLaneStats {
  /** Requests answered here (`fromMemory` of them from the bytes of an earlier answer). */
  answered: number;
  fromMemory: number;
  /** Taken, but handed to yoga after their body was read. */
  handedOver: number;
}

export interface FastLane {
  /** Takes the request (true), or leaves it to yoga untouched (false). */
  handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  stats: FastLaneStats;
}

/** A success's JSON and (once a GET needed it) its ETag. */
interface Written {
  text: string;
  etag?: string;
}

/** How long an answer's bytes are kept (see `answers`): as long as the document store remembers a registered document. */
const ANSWERS_TTL_MS = 5000;

/** Bodies (and GET URLs) up to this size have their cached answers kept as bytes (see `answers`). */
const ANSWERED_BODY_MAX = 8 * 1024;

/**
 * The common request — POST /graphql with a JSON body of a query, its variables and operation
 * name — run on yoga's own envelop (every plugin's parse, validate, context and execute hooks)
 * without yoga's HTTP layer: no fetch Request or Response objects, no body streams. That layer
 * cost about a quarter of a small query's server CPU (measured). Whatever is not that common
 * request, or not a clean success once parsed, is handed to yoga with the body already read and
 * the tenant already resolved, so yoga answers it exactly as before: bad JSON, unknown
 * parameters, refused tokens, limits, parse and validation errors. Execution results, errors
 * included, are answered here through yoga's own result processor. A request refused before
 * its tenant is known (a bad token, the rate limit) is resolved once more by yoga.
 */
export function createFastLane(deps: FastLaneDeps): FastLane {
  const { yoga } = deps;
  const stats: FastLaneStats = { answered: 0, fromMemory: 0, handedOver: 0 };
  // The bytes of answers the response cache gave, by everything that decides them (the response
  // cache's scope, trusted-documents mode, the media type, and a POST's body or a GET's URL),
  // valid for the content version they were cached under. A repeat is answered from here once
  // its tenant is admitted: without parsing the body or the document, building a context or
  // running the plugins, none of which can change an answer the response cache would give for
  // the same request and version. A GET's caching headers are worked out anew each time. Kept
  // no longer than a registered document or an admitted token is remembered (5 s), so removing
  // a registered document is refused here as soon as on the full path.
  const answers = new LRUCache<string, { version: number; written: Written; keys: readonly string[] }>({
    max: 5000,
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (a) => a.written.text.length + 1,
    ttl: ANSWERS_TTL_MS,
  });
  // A number per org schema object: a new one (new models, or new limits that may now refuse the
  // document) starts new keys.
  const schemaIds = new WeakMap<object, number>();
  let nextSchemaId = 0;
  const schemaIdOf = (org: object) => schemaIds.get(org) ?? (schemaIds.set(org, ++nextSchemaId), nextSchemaId);
  // A CDN asks for the same few URLs again and again: each is read once (see `readGet`).
  const getRequests = new LRUCache<string, { params: Params | null; urlToken: string | null } | GraphQLError>({ max: 10_000 });
  // The JSON (and ETag) of a result whose data is the response cache's object, written once
  // per data object and extensions (see `serialized`).
  const texts = new WeakMap<object, { extensions: string; text: string; etag?: string }>();
  return { handle, stats };

  function readGet(url: string): { params: Params | null; urlToken: string | null } {
    let read = getRequests.get(url);
    if (!read) {
      try {
        read = { params: getParams(url), urlToken: urlTokenOf(url) };
      } catch (err) {
        if (!(err instanceof GraphQLError)) throw err;
        read = err;
      }
      getRequests.set(url, read);
    }
    if (read instanceof GraphQLError) throw read;
    return read;
  }

  /** A success's JSON, from memory when its data object was written before with the same extensions. */
  function serialized(result: ExecutionResult): Written {
    const data = result.data;
    if (typeof data !== 'object' || data === null) return { text: JSON.stringify(result) };
    const extensions = JSON.stringify(result.extensions ?? null);
    const known = texts.get(data);
    if (known && known.extensions === extensions) return known;
    const entry = { extensions, text: JSON.stringify(result) };
    texts.set(data, entry);
    return entry;
  }

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (req.method === 'GET' && url.startsWith('/graphql?')) {
      // text/html (GraphiQL for browsers) and media types other than JSON stay with yoga
      const mediaType = graphqlMediaTypeOf(req.headers.accept);
      if (!mediaType) return false;
      run(req, res, null, mediaType).catch((err: unknown) => fail(res, deps.mask(err, requestIdOf(req))));
      return true;
    }
    if (req.method !== 'POST' || url !== '/graphql') return false;
    const contentType = normalized(req.headers['content-type']);
    if (contentType !== 'application/json' && contentType !== 'application/json;charset=utf-8') return false;
    const mediaType = graphqlMediaTypeOf(req.headers.accept);
    const length = req.headers['content-length'];
    if (!mediaType || length === undefined || !/^\d+$/.test(length) || Number(length) > deps.bodyLimit) return false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => {}); // the client went away: nothing to answer
    req.on('end', () => {
      run(req, res, Buffer.concat(chunks), mediaType).catch((err: unknown) => fail(res, deps.mask(err, requestIdOf(req))));
    });
    return true;
  }

  /** `body` is a POST's; null for a GET, whose parameters are in the URL. */
  async function run(req: IncomingMessage, res: ServerResponse, body: Buffer | null, mediaType: MediaType): Promise<void> {
    const requestId = requestIdOf(req);
    const url = req.url ?? '/graphql';
    let params: Params | null = null;
    let urlToken: string | null = null;
    let text: string | null = null;
    if (body === null) {
      try {
        ({ params, urlToken } = readGet(url));
      } catch (err) {
        if (!(err instanceof GraphQLError)) throw err;
        res.setHeader('Cache-Control', 'no-store');
        return send(res, await processRegularResult({ errors: [err] }, yoga.fetchAPI, mediaType));
      }
    } else {
      text = body.toString('utf8');
      try {
        params = plainParams(JSON.parse(text));
      } catch {
        // yoga answers malformed JSON
      }
    }
    if (!params) return handOver(req, res, body);
    let tenant: ResolvedTenant;
    try {
      const credentials = { authorization: req.headers.authorization, urlToken };
      tenant = await resolveTenant(deps, credentials, requestId, deps.services.clientAddress(req), { origin: req.headers.origin, host: req.headers.host });
    } catch (err) {
      // refused or failed: yoga answers (or masks) it, without a second attempt that would count
      // a second failed authentication
      return handOver(req, res, body, { tenantError: err });
    }
    for (const [k, v] of Object.entries(tenant.rateHeaders)) res.setHeader(k, v);
    // a POST by its body, a GET by its URL (and whether its token came in it, which sets its caching headers)
    const asked = text ?? `GET ${tenant.tokenInUrl ? 'shared' : 'private'} ${url}`;
    const trusted = tenant.state.identity.delivery.trustedDocuments ? 'trusted' : 'any';
    const answerKey = deps.responseCache && asked.length <= ANSWERED_BODY_MAX ? `${schemaIdOf(tenant.state.org)}\n${responseCacheScope(tenant.state)}\n${trusted}\n${mediaType}\n${asked}` : null;
    if (answerKey !== null) {
      const known = answers.get(answerKey);
      if (known && deps.services.contentVersions.known(tenant.state.identity.orgId) === known.version) {
        stats.answered++;
        stats.fromMemory++;
        return answer(req, res, tenant, url, mediaType, known.written, body === null ? known.keys : null);
      }
    }

    let query: string | null;
    try {
      query = await resolveDocumentText(deps.services.documents, tenant.state, params);
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      stats.answered++;
      return send(res, await processRegularResult({ errors: [err] }, yoga.fetchAPI, mediaType));
    }
    if (query === null) return handOver(req, res, body, { tenant });
    // From here on, a hand-over gives yoga the text itself (it knows no persisted documents).
    const resolved: Params = { query, variables: params.variables, operationName: params.operationName };
    const max = tenant.state.org.limits.maxDocumentBytes;
    if (max && Buffer.byteLength(query) > max) return handOver(req, res, resolved, { tenant });

    // The key under which the plugins find this request's tenant (yoga's Request otherwise).
    const key = {};
    deps.states.set(key, tenant.state);
    const enveloped = yoga.getEnveloped({ req, res, request: key, params: resolved });
    let document;
    try {
      document = enveloped.parse(query);
    } catch {
      return handOver(req, res, resolved, { tenant });
    }
    if (!isKnownValid(enveloped.schema, document)) {
      if (enveloped.validate(enveloped.schema, document).length > 0) return handOver(req, res, resolved, { tenant });
      rememberValid(enveloped.schema, document);
    }
    if (getOperationAST(document, params.operationName)?.operation !== 'query') return handOver(req, res, resolved, { tenant });

    let result: ExecutionResult;
    let reads: ReadSet | undefined;
    let contextValue: Pick<ResponseCacheContext, 'reads' | 'responseCacheHit'> = {};
    try {
      contextValue = (await enveloped.contextFactory()) as typeof contextValue;
      reads = contextValue.reads;
      const executed = await enveloped.execute({ schema: enveloped.schema, document, contextValue, variableValues: params.variables, operationName: params.operationName });
      if (isAsyncIterable(executed)) throw new Error('an async iterable result for a query');
      result = executed;
    } catch (err) {
      result = { errors: [deps.mask(err, requestId)] };
    }
    stats.answered++;
    if (!result.errors?.length && !(result.extensions as { http?: unknown } | undefined)?.http) {
      // what yoga's processor writes for such a result: its JSON, status 200
      const written = serialized(result);
      // a GET's surrogate keys: what its execution read (a cached answer's, what the first one read)
      const keys = body !== null ? null : reads && tenant.state.scope === 'delivery' ? surrogateKeysOf(tenant.state.identity.orgId, reads) : [];
      const hit = contextValue.responseCacheHit;
      // a cached answer never read traffic figures (the response cache keeps none that did)
      if (answerKey !== null && hit) answers.set(answerKey, { version: hit.version, written, keys: keys ?? [] });
      return answer(req, res, tenant, url, mediaType, written, keys, reads?.traffic === true);
    }
    if (body === null) res.setHeader('Cache-Control', 'no-store');
    await send(res, await processRegularResult(result, yoga.fetchAPI, mediaType));
  }

  /**
   * Writes a success: its JSON with status 200; for a GET (`keys` given: its surrogate keys) with
   * its caching headers, or a 304 when the client's copy is current.
   */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    tenant: ResolvedTenant,
    url: string,
    mediaType: MediaType,
    written: Written,
    keys: readonly string[] | null,
    traffic = false,
  ): void {
    const headers: Record<string, string | number> = { 'Content-Type': `${mediaType}; charset=utf-8` };
    if (keys !== null && applyHttpCaching(req, res, tenant, url, written, keys, traffic, headers)) return;
    headers['Content-Length'] = Buffer.byteLength(written.text);
    res.writeHead(200, headers);
    res.end(written.text);
  }

  /**
   * Adds a GET answer's caching headers (Cache-Control, Vary, ETag, surrogate keys) to `headers`,
   * records its URL for purging when a CDN may keep it, and answers 304 itself (true) when the
   * client's copy is current. The headers are worked out for each answer, from the organization's
   * delivery settings as this request's admission read them.
   */
  function applyHttpCaching(
    req: IncomingMessage,
    res: ServerResponse,
    tenant: ResolvedTenant,
    url: string,
    written: Written,
    keys: readonly string[],
    traffic: boolean,
    headers: Record<string, string | number>,
  ): boolean {
    const { state, tokenInUrl } = tenant;
    const etag = (written.etag ??= etagOf(written.text));
    Object.assign(headers, { 'Cache-Control': cacheControlOf(state, tokenInUrl, traffic), ETag: etag }, corsAndVaryOf(state, tokenInUrl));
    if (tokenInUrl && state.scope === 'delivery') {
      // a CDN may store it: see markShareable
      markShareable(res);
      deps.services.edgeUrls.record(state.identity.orgId, url, keys, variantOf(req.headers));
    }
    // A 304 carries what a cache updates its stored copy with (RFC 9110: Cache-Control, ETag,
    // Vary…); the surrogate keys came with the 200 it stored.
    if (!matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
      Object.assign(headers, surrogateKeyHeaders(keys));
      return false;
    }
    res.writeHead(304, headers);
    res.end();
    return true;
  }

  /**
   * Lets yoga answer the request: a POST from its already-read body (or the resolved parameters),
   * a GET from its URL (or one carrying the resolved text).
   */
  async function handOver(
    req: IncomingMessage,
    res: ServerResponse,
    source: Buffer | Params | null,
    resolved: { tenant?: ResolvedTenant; tenantError?: unknown } = {},
  ): Promise<void> {
    stats.handedOver++;
    const headers = new yoga.fetchAPI.Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const base = `http://${req.headers.host ?? 'localhost'}`;
    let request: Request;
    if (req.method === 'GET') {
      const url = new URL(req.url ?? '/graphql', base);
      if (source !== null && !Buffer.isBuffer(source)) {
        url.searchParams.delete('extensions');
        url.searchParams.delete('documentId');
        url.searchParams.set('query', source.query ?? '');
      }
      request = new yoga.fetchAPI.Request(url.toString(), { method: 'GET', headers });
      // what yoga answers here is an error: never stored
      res.setHeader('Cache-Control', 'no-store');
    } else {
      const text = source === null ? '' : Buffer.isBuffer(source) ? source.toString('utf8') : JSON.stringify(source);
      request = new yoga.fetchAPI.Request(`${base}${req.url}`, { method: 'POST', headers, body: text });
    }
    await send(res, await yoga.fetch(request, { req, res, ...resolved }));
  }
}

/**
 * Documents that passed validation against a schema, so a repeat skips envelop's validate: the
 * outcome depends on nothing else (an org's limit rules are built with its schema object, and a
 * parsed document is yoga's cached object for its text), and yoga's own validation cache, which
 * it would hit, first keys its lookup by the names of all ~30 rules, read anew per request.
 */
const validDocuments = new WeakMap<GraphQLSchema, WeakSet<DocumentNode>>();
const isKnownValid = (schema: GraphQLSchema, document: DocumentNode) => validDocuments.get(schema)?.has(document) === true;
function rememberValid(schema: GraphQLSchema, document: DocumentNode): void {
  let known = validDocuments.get(schema);
  if (!known) validDocuments.set(schema, (known = new WeakSet()));
  known.add(document);
}

const requestIdOf = (req: IncomingMessage) => (req as IncomingMessage & { requestId?: string }).requestId ?? '';

/**
 * A fault of this lane itself, answered as yoga answers an error: the status and headers of its
 * `extensions.http` (a dependency outage: 503 with Retry-After), else 500; `http` is not echoed.
 */
function fail(res: ServerResponse, masked: GraphQLError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { http, ...extensions } = masked.extensions as { http?: { status?: number; headers?: Record<string, string> } };
  const text = JSON.stringify({ errors: [{ ...masked.toJSON(), extensions }] });
  res.writeHead(http?.status ?? 500, { ...http?.headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  // a subscription handed over (an Accept that also takes JSON) is a stream that never ends
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) return stream(res, response, response.body);
  const body = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('Content-Length', body.length);
  res.writeHead(response.status);
  res.end(body);
}

/** Writes a streamed answer (server-sent events) as it comes, and stops reading it when the client leaves. */
async function stream(res: ServerResponse, response: Response, body: ReadableStream<Uint8Array>): Promise<void> {
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.writeHead(response.status);
  res.flushHeaders();
  const reader = body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}
