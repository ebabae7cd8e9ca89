import { Router } from 'express';
import type { Services } from '../../shared/services.js';
import { createGraphqlServer, type GraphqlServer } from './yoga.js';

const servers = new WeakMap<Services, GraphqlServer>();

/** The GraphQL server mounted for these services (tests read its schema cache statistics). */
export const graphqlServerOf = (services: Services): GraphqlServer | undefined => servers.get(services);

/** Mounts `/graphql` (GET and POST; yoga reads its own bodies, so this sits before the JSON parser). */
export function graphqlRoutes(services: Services): Router {
  const server = createGraphqlServer(services);
  servers.set(services, server);
  const router = Router();
  router.use('/graphql', (req, res) => {
    void server.requestScope.run({ requestId: req.requestId }, () => server.yoga(req, res));
  });
  return router;
}
