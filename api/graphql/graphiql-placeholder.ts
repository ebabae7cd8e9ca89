import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildSchema, execute, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/** The Authorization header GraphiQL opens with: a prompt for a token, not a token. */
export const GRAPHIQL_PLACEHOLDER_AUTHORIZATION = 'Bearer <delivery or preview token>';

const WHERE_THE_TOKEN_GOES =
  'Folio\'s schema is your organization\'s, so it needs a token: open "Headers" below, replace <delivery or preview token> with a delivery or preview token, then re-fetch the schema (the ⟳ button in the sidebar, or Shift-Ctrl-R).';

/** What GraphiQL's schema explorer shows before a token is set: where the token goes. */
const placeholderSchema = buildSchema(`
"""${WHERE_THE_TOKEN_GOES}"""
type Query {
  """${WHERE_THE_TOKEN_GOES}"""
  tokenNeeded: String
}
`);

const MAX_BODY_BYTES = 64 * 1024;

/** Only `__schema` / `__type` / `__typename` fields: GraphiQL's schema fetch. */
function isIntrospection(document: DocumentNode): boolean {
  return document.definitions.every(
    (d) => d.kind !== 'OperationDefinition' || (d as OperationDefinitionNode).selectionSet.selections.every((s) => s.kind === 'Field' && s.name.value.startsWith('__')),
  );
}

/**
 * GraphiQL fetches the schema as soon as it opens, with the placeholder header it was given: a
 * 401 there showed two errors and "Error fetching schema" before anyone could enter a token.
 * That fetch (a POST introspection carrying exactly the placeholder) is answered 200 from a
 * one-field schema whose descriptions say where the token goes; any other operation with the
 * placeholder is a 401 saying the same. Returns false (nothing read) for every other request.
 */
export function answerGraphiqlPlaceholder(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'POST' || req.headers.authorization !== GRAPHIQL_PLACEHOLDER_AUTHORIZATION) return false;
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
    };
    let document: DocumentNode | undefined;
    let variables: Record<string, unknown> | undefined;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: unknown; variables?: Record<string, unknown> };
      if (size <= MAX_BODY_BYTES && typeof body.query === 'string') document = parse(body.query);
      variables = body.variables ?? undefined;
    } catch {
      document = undefined;
    }
    if (!document || !isIntrospection(document)) {
      send(401, { errors: [{ message: WHERE_THE_TOKEN_GOES, extensions: { code: 'UNAUTHENTICATED' } }] }, { 'www-authenticate': 'Bearer realm="folio"' });
      return;
    }
    void Promise.resolve(execute({ schema: placeholderSchema, document, variableValues: variables })).then((result) => send(200, result));
  });
  return true;
}
