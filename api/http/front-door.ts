import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Application } from 'express';
import { graphqlHandler } from '../graphql/index.js';
import type { GraphqlServer } from '../graphql/yoga.js';
import type { Services } from '../../shared/services.js';
import { recordRequest } from './access-log.js';
import { imageHandler } from './img/image-routes.js';
import { imageMemoryHits } from './img/memory-hits.js';
import { IMG } from '../../shared/assets/verified-image-paths.js';
import { writeError } from './error-handler.js';
import { applyCors } from './cors.js';
import { assignRequestId } from './request-context.js';

/** `/graphql`, `/graphql?…` and `/graphql/…` (yoga answers 404 for the last). */
const isGraphql = (url: string) => url.startsWith('/graphql') && (url.length === 8 || url[8] === '?' || url[8] === '/');

/**
 * The server's request listener. Every request gets its id here. The two hottest routes are
 * answered without Express — GraphQL (yoga is a Node handler itself) and images (GET and HEAD
 * `/img/…`: memory hits first, then the image handler Express would run, errors rendered by the
 * same `writeError`) — because Express's per-request dispatch measured about three times the
 * cost of a memory hit; each of them is logged and timed like the Express routes. Everything
 * else goes to the Express app.
 */
export function frontDoor(services: Services, app: Application, graphqlServer: GraphqlServer): RequestListener {
  const graphql = graphqlHandler(graphqlServer);
  const imageHit = imageMemoryHits(services);
  const image = imageHandler(services);
  return (req: IncomingMessage, res: ServerResponse) => {
    const identified = assignRequestId(req, res);
    const url = req.url ?? '/';
    if (isGraphql(url)) {
      recordRequest(services, identified, res, () => '/graphql');
      if (applyCors(req, res, 'GET, POST, OPTIONS')) return;
      graphql(req, res);
      return;
    }
    // `/img/` alone (no path after it) is Express's 404, as is any other method.
    if (url.startsWith(IMG) && url.length > IMG.length && (req.method === 'GET' || req.method === 'HEAD')) {
      recordRequest(services, identified, res, () => '/img/*rest');
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (imageHit(req, res, path)) return;
      image(identified, res, path).catch((err: unknown) => writeError(res, err, identified.requestId, services.logger));
      return;
    }
    app(req, res);
  };
}
