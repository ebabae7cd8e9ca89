import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../api/http/openapi/index.js';

/**
 * Checks the responses the suites receive against the OpenAPI document, so the document cannot
 * drift from what the routes answer: every JSON answer of a documented operation must match the
 * schema the document gives for its status.
 */
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  operation: Operation;
}

let compiled: { routes: Route[]; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function setup() {
  if (compiled) return compiled;
  const doc = buildOpenApiDocument('http://x') as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'folio', components: doc.components });
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    // a template segment matches one path segment; literal parts stay literal
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(methods)) routes.push({ method: method.toUpperCase(), pattern, template, operation });
  }
  // the more literal template first, where two could match one path
  routes.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  compiled = { routes, ajv, validators: new Map() };
  return compiled;
}

/** The schema problems of one response, or null when it matches (or the document says nothing of it). */
export function responseProblems(method: string, pathname: string, status: number, contentType: string | null, body: unknown): string | null {
  if (!contentType?.includes('json') || body === null || typeof body === 'string') return null;
  const { routes, ajv, validators } = setup();
  const route = routes.find((r) => r.method === method && r.pattern.test(pathname));
  if (!route) return null;
  const schema = route.operation.responses?.[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return null;
  const key = `${route.method} ${route.template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"folio#/components/'));
    validate = ajv.compile(rewritten);
    validators.set(key, validate);
  }
  if (validate(body)) return null;
  return `${key} does not match the OpenAPI document: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
}
