import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Application } from 'express';
import { graphqlHandler } from '../graphql/index.js';
import type { Services } from '../../shared/services.js';
import { recordRequest } from './access-log.js';
import { imageMemoryHits } from './img/memory-hits.js';
import { assignRequestId } from './request-context.js';

/** `/graphql`, `/graphql?…` and `/graphql/…` (yoga answers 404 for the last). */
const isGraphql = (url: string) => url.startsWith('/graphql') && (url.length === 8 || url[8] === '?' || url[8] === '/');

/**
 * The server's request listener. Every request gets its id here. The two hottest routes are
 * answered without Express — GraphQL (yoga is a Node handler itself) and image derivatives held
 * in memory — because Express's per-request dispatch measured about three times the cost of a
 * memory hit; each of them is logged and timed like the Express routes. Everything else,
 * including every error answer of `/img`, goes to the Express app.
 */
export function frontDoor(services: Services, app: Application): RequestListener {
  const graphql = graphqlHandler(services);
  const imageHit = imageMemoryHits(services);
  return (req: IncomingMessage, res: ServerResponse) => {
    const identified = assignRequestId(req, res);
    const url = req.url ?? '/';
    if (isGraphql(url)) {
      recordRequest(services, identified, res, () => '/graphql');
      graphql(req, res);
      return;
    }
    if (url.startsWith('/img/')) {
      // Logged only when answered here; otherwise the Express route logs it.
      const hit = imageHit(req, res);
      if (hit) {
        recordRequest(services, identified, res, () => '/img/*rest');
        return;
      }
    }
    app(req, res);
  };
}
