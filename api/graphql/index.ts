import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerGraphiqlPlaceholder } from './graphiql-placeholder.js';
import type { GraphqlServer } from './yoga.js';

/**
 * `/graphql` (GET and POST): the common JSON POST takes the fast lane (yoga's envelop without
 * its HTTP layer); everything else goes straight to yoga, which reads its own bodies,
 * authenticates in its `useTenant` plugin and renders its own errors. GraphiQL's schema fetch
 * before a token is set is answered apart (graphiql-placeholder.ts).
 */
export function graphqlHandler(server: GraphqlServer): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (answerGraphiqlPlaceholder(req, res)) return;
    if (!server.fastLane(req, res)) void server.yoga(req, res);
  };
}
