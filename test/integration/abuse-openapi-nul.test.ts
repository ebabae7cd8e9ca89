import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/http/openapi/index.js';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../support/event-loop-guard.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * The abuse pass over the REST API, generated from its OpenAPI document: every string input of
 * every operation — path parameter, query parameter, JSON body property, raw body — gets a NUL
 * character, one at a time, with the caller's own valid token. Postgres cannot store a NUL, so
 * an input that reaches it unchecked was a 500; each must be an answer in the envelope, below 500,
 * without holding the event loop past the abuse bound.
 */
interface Schema {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  allOf?: Schema[];
  items?: Schema;
  minimum?: number;
  minItems?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  'x-scope': string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const doc = buildOpenApiDocument('http://x') as unknown as Doc;
const NUL = 'a\u0000b';

const resolve = (s: Schema | undefined): Schema => {
  if (!s) return {};
  if (s.$ref) return resolve(doc.components.schemas[s.$ref.split('/').pop()!]);
  if (s.allOf) return s.allOf.map(resolve).reduce<Schema>((a, b) => ({ ...a, ...b, properties: { ...a.properties, ...b.properties }, required: [...(a.required ?? []), ...(b.required ?? [])] }), {});
  return s;
};
const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A value of the schema's shape: enough for a body to pass its shape check and reach the database. */
function sample(schema: Schema | undefined): unknown {
  const s = resolve(schema);
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return s.minItems ? [sample(s.items)] : [];
    default:
      return Object.fromEntries((s.required ?? []).map((name) => [name, sample(s.properties?.[name])]));
  }
}

interface Case {
  name: string;
  method: string;
  scope: string;
  path: string;
  param?: Parameter;
  jsonProperty?: string;
  rawType?: string;
  operation: Operation;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const base = { method: method.toUpperCase(), scope: operation['x-scope'], path, operation };
      for (const param of operation.parameters ?? []) {
        if (param.in !== 'header' && typeOf(resolve(param.schema)) === 'string') out.push({ ...base, name: `${base.method} ${path} ${param.in} ${param.name}`, param });
      }
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) {
        if (type !== 'application/json') {
          out.push({ ...base, name: `${base.method} ${path} body ${type}`, rawType: type });
          continue;
        }
        const schema = resolve(content.schema);
        for (const [property, propertySchema] of Object.entries(schema.properties ?? {})) {
          if (typeOf(resolve(propertySchema)) === 'string') out.push({ ...base, name: `${base.method} ${path} body .${property}`, jsonProperty: property });
        }
      }
    }
  }
  return out;
}

let app: TestApp;
let org: TestOrg;
let projectId: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  org = await app.createOrg('NUL pass');
  projectId = (await app.json('/management/v1/projects', { token: org.manageToken, body: { name: 'P' } })).body.result.id;
  await app.json(`/management/v1/projects/${projectId}/distributions`, { token: org.manageToken, body: { id: 'edge', name: 'Edge', hostnames: ['cdn.example.com'] } });
  for (const scope of ['manage', 'analytics', 'video', 'ingest', 'delivery', 'preview'] as const) tokens[scope] = await app.createToken(org.manageToken, [scope]);
  tokens.admin = app.adminToken;
  tokens.metrics = app.metricsToken;
});
afterAll(async () => app?.close());

const PATH_DEFAULTS: Record<string, () => string> = { projectId: () => projectId, distributionId: () => 'edge', id: () => '1', orgId: () => org.orgId, ext: () => 'jpg', operations: () => '-' };

describe('a NUL in every string input of the OpenAPI document', () => {
  const all = cases();

  it('covers path, query and body inputs of many operations', () => {
    expect(all.filter((c) => c.param?.in === 'path').length).toBeGreaterThan(20);
    expect(all.filter((c) => c.param?.in === 'query').length).toBeGreaterThan(10);
    expect(all.filter((c) => c.jsonProperty).length).toBeGreaterThan(20);
  });

  it.each(all.map((c) => [c.name, c] as const))('%s: answered below 500 in the envelope', async (_name, c) => {
    let path = c.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(c.param?.in === 'path' && c.param.name === name ? NUL : (PATH_DEFAULTS[name]?.() ?? 'x')));
    if (c.param?.in === 'query') path += `?${encodeURIComponent(c.param.name)}=${encodeURIComponent(NUL)}`;
    const headers: Record<string, string> = {};
    let rawBody: string | undefined;
    const jsonSchema = c.operation.requestBody?.content?.['application/json']?.schema;
    if (c.rawType) {
      headers['content-type'] = c.rawType === 'multipart/form-data' ? 'application/octet-stream' : c.rawType;
      rawBody = c.rawType.includes('json') ? JSON.stringify({ path: NUL, timestamp: new Date().toISOString() }) : NUL;
    } else if (jsonSchema && c.method !== 'GET' && c.method !== 'DELETE') {
      const body = sample(jsonSchema) as Record<string, unknown>;
      if (c.jsonProperty) body[c.jsonProperty] = NUL;
      headers['content-type'] = 'application/json';
      rawBody = JSON.stringify(body);
    }
    const token = c.scope === 'public' ? undefined : tokens[c.scope];
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => app.json(path, { method: c.method, token, headers, rawBody }));
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeLessThan(500);
    if (res.status >= 400) expect(res.body).toMatchObject({ success: false, result: null, errors: expect.arrayContaining([expect.any(String)]) });
  });
});
