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

interface Compiled {
  routes: Route[];
  ajv: Ajv2020;
  /** Validators by the text of their schema: hundreds of responses share a few dozen schemas. */
  validators: Map<string, ValidateFunction>;
}
let compiled: Compiled | undefined;

const schemaOf = (operation: Operation, status: number) => operation.responses?.[String(status)]?.content?.['application/json']?.schema;

/**
 * Everything is compiled on first use, at once: a suite's first request (usually in its setup)
 * pays for it, not a request whose event-loop time a test measures.
 */
function setup(): Compiled {
  if (compiled) return compiled;
  const doc = buildOpenApiDocument('http://x') as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'folio', components: doc.components });
  const routes: Route[] = [];
  const validators = new Map<string, ValidateFunction>();
  for (const [template, methods] of Object.entries(doc.paths)) {
    // a template segment matches one path segment; literal parts stay literal
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(methods)) {
      routes.push({ method: method.toUpperCase(), pattern, template, operation });
      for (const response of Object.values(operation.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        const key = JSON.stringify(schema ?? null);
        if (schema && !validators.has(key)) validators.set(key, ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"folio#/components/'))));
      }
    }
  }
  // the more literal template first, where two could match one path
  routes.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  compiled = { routes, ajv, validators };
  return compiled;
}

/** The schema problems of one response, or null when it matches (or the document says nothing of it). */
export function responseProblems(method: string, pathname: string, status: number, contentType: string | null, body: unknown): string | null {
  if (!contentType?.includes('json') || body === null || typeof body === 'string') return null;
  const { routes, ajv, validators } = setup();
  const route = routes.find((r) => r.method === method && r.pattern.test(pathname));
  if (!route) return null;
  const schema = schemaOf(route.operation, status);
  if (!schema) return null;
  const validate = validators.get(JSON.stringify(schema))!;
  if (validate(body)) return null;
  return `${route.method} ${route.template} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
}
