import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { jsonShapeProblem } from '../../shared/json-depth.js';
import type { Services } from '../../shared/services.js';
import type { RequestStates } from './request-state.js';
import { resolveTenant, type ResolvedTenant } from './resolve-tenant.js';
import type { SchemaCache } from './schema-cache.js';
import type { MaskError } from './use-error-codes.js';
import { VARIABLE_LIMITS } from './use-limits.js';

type MediaType = 'application/json' | 'application/graphql-response+json';

interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/**
 * Accept headers answered here, as yoga answers them (its `useResultProcessors`: of the two
 * JSON types the first one listed wins, and `*∕*` or none means application/json). Any other
 * Accept goes to yoga.
 */
const MEDIA_TYPES: Record<string, MediaType> = {
  '': 'application/json',
  '*/*': 'application/json',
  'application/json': 'application/json',
  'application/json;charset=utf-8': 'application/json',
  'application/graphql-response+json': 'application/graphql-response+json',
  'application/graphql-response+json;charset=utf-8': 'application/graphql-response+json',
  'application/graphql-response+json,application/json': 'application/graphql-response+json',
  'application/graphql-response+json;charset=utf-8,application/json;charset=utf-8': 'application/graphql-response+json',
  'application/graphql-response+json,application/json;q=0.9': 'application/graphql-response+json',
};

const normalized = (header: string | undefined) => (header ?? '').replace(/\s/g, '').toLowerCase();
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body as GraphQL parameters yoga would accept unchanged; null for anything else. */
function plainParams(body: unknown): Params | null {
  if (!isPlainObject(body)) return null;
  for (const key of Object.keys(body)) if (key !== 'query' && key !== 'variables' && key !== 'operationName') return null;
  const { query, variables, operationName } = body;
  if (typeof query !== 'string') return null;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  // yoga's limits refuse them (and say why)
  if (variables && jsonShapeProblem(variables, VARIABLE_LIMITS)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  return { query, variables: variables as Params['variables'], operationName: operationName as Params['operationName'] };
}

export interface FastLaneDeps {
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
  services: Services;
  cache: SchemaCache;
  states: RequestStates;
  mask: MaskError;
  bodyLimit: number;
}

export interface FastLane {
  /** Takes the request (true), or leaves it to yoga untouched (false). */
  handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Requests answered here, and taken but handed to yoga after their body was read. */
  stats: { answered: number; handedOver: number };
}

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
  const stats = { answered: 0, handedOver: 0 };
  return { handle, stats };

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || req.url !== '/graphql') return false;
    const contentType = normalized(req.headers['content-type']);
    if (contentType !== 'application/json' && contentType !== 'application/json;charset=utf-8') return false;
    const mediaType = MEDIA_TYPES[normalized(req.headers.accept)];
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

  async function run(req: IncomingMessage, res: ServerResponse, body: Buffer, mediaType: MediaType): Promise<void> {
    const requestId = requestIdOf(req);
    let params: Params | null = null;
    try {
      params = plainParams(JSON.parse(body.toString('utf8')));
    } catch {
      // yoga answers malformed JSON
    }
    if (!params) return handOver(req, res, body);
    let tenant: ResolvedTenant;
    try {
      tenant = await resolveTenant(deps, req.headers.authorization, requestId, deps.services.clientAddress(req), { origin: req.headers.origin, host: req.headers.host });
    } catch (err) {
      // refused or failed: yoga answers (or masks) it, without a second attempt that would count
      // a second failed authentication
      return handOver(req, res, body, { tenantError: err });
    }
    const max = tenant.state.org.limits.maxDocumentBytes;
    if (max && Buffer.byteLength(params.query) > max) return handOver(req, res, body, { tenant });

    // The key under which the plugins find this request's tenant (yoga's Request otherwise).
    const key = {};
    deps.states.set(key, tenant.state);
    const enveloped = yoga.getEnveloped({ req, res, request: key, params });
    let document;
    try {
      document = enveloped.parse(params.query);
    } catch {
      return handOver(req, res, body, { tenant });
    }
    if (!isKnownValid(enveloped.schema, document)) {
      if (enveloped.validate(enveloped.schema, document).length > 0) return handOver(req, res, body, { tenant });
      rememberValid(enveloped.schema, document);
    }
    if (getOperationAST(document, params.operationName)?.operation !== 'query') return handOver(req, res, body, { tenant });

    let result: ExecutionResult;
    try {
      const contextValue = await enveloped.contextFactory();
      const executed = await enveloped.execute({ schema: enveloped.schema, document, contextValue, variableValues: params.variables, operationName: params.operationName });
      if (isAsyncIterable(executed)) throw new Error('an async iterable result for a query');
      result = executed;
    } catch (err) {
      result = { errors: [deps.mask(err, requestId)] };
    }
    stats.answered++;
    for (const [k, v] of Object.entries(tenant.rateHeaders)) res.setHeader(k, v);
    if (!result.errors?.length && !(result.extensions as { http?: unknown } | undefined)?.http) {
      // what yoga's processor writes for such a result: its JSON, status 200
      const text = JSON.stringify(result);
      res.writeHead(200, { 'Content-Type': `${mediaType}; charset=utf-8`, 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    await send(res, await processRegularResult(result, yoga.fetchAPI, mediaType));
  }

  /** Lets yoga answer the request from its already-read body. */
  async function handOver(req: IncomingMessage, res: ServerResponse, body: Buffer, resolved: { tenant?: ResolvedTenant; tenantError?: unknown } = {}): Promise<void> {
    stats.handedOver++;
    const headers = new yoga.fetchAPI.Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const request = new yoga.fetchAPI.Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: 'POST', headers, body: body.toString('utf8') });
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
  const body = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('Content-Length', body.length);
  res.writeHead(response.status);
  res.end(body);
}
