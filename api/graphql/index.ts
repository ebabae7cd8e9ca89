import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../shared/services.js';
import { createGraphqlServer, type GraphqlServer } from './yoga.js';

const servers = new WeakMap<Services, GraphqlServer>();

/** The GraphQL server mounted for these services (tests read its schema cache statistics). */
export const graphqlServerOf = (services: Services): GraphqlServer | undefined => servers.get(services);

/**
 * `/graphql` (GET and POST): the common JSON POST takes the fast lane (yoga's envelop without
 * its HTTP layer); everything else goes straight to yoga, which reads its own bodies,
 * authenticates in its `useTenant` plugin and renders its own errors.
 */
export function graphqlHandler(services: Services): (req: IncomingMessage, res: ServerResponse) => void {
  const server = createGraphqlServer(services, { responseCache: services.config.graphqlResponseCache });
  servers.set(services, server);
  return (req, res) => {
    if (!server.fastLane(req, res)) void server.yoga(req, res);
  };
}
