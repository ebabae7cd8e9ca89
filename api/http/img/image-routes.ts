import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import { derivativeDelivery, type DeliveryOptions } from '../../../shared/assets/deliver-derivative.js';
import type { Services } from '../../../shared/services.js';
import { assertNotSuspended } from '../../../shared/tenancy/suspensions.js';
import { pipeBody } from '../files/pipe-body.js';
import { answeredNotModified, clientHolds } from '../files/send-headers.js';
import { markImage, writeImageHead } from './image-response.js';

export type ImageRouteOptions = DeliveryOptions;

/** Answers one `/img/…` GET or HEAD (`path` without the query); throws an AppError for an error answer. */
export type ImageHandler = (req: IncomingMessage & { requestId: string }, res: ServerResponse, path: string) => Promise<void>;

/**
 * `/img/{sig}/{org}/{asset}/{version}/{ops}.{ext}`: signed derivatives, made and read by the
 * assets domain (`derivativeDelivery`); this maps its answer to HTTP.
 */
export function imageRoutes(services: Services, options: ImageRouteOptions = {}): Router {
  const handle = imageHandler(services, options);
  return Router().get('/img/*rest', (req, res) => handle(req, res, req.path));
}

/**
 * The `/img` route as a plain Node handler, so that the front door can answer image requests
 * without Express (see front-door.ts); `imageRoutes` mounts the same handler in Express.
 */
export function imageHandler(services: Services, options: ImageRouteOptions = {}): ImageHandler {
  const deliver = derivativeDelivery(services, options);
  return async (req, res, path) => {
    const image = services.verifyImagePath(path, req.headers.accept);
    assertNotSuspended(services.suspensions, image.parts.orgId);
    if (image.negotiated) res.setHeader('Vary', 'Accept');
    markImage(services, res, path, image);
    const answer = await deliver(image, { requestId: req.requestId, holds: (etag) => clientHolds(req, etag) });
    if (answer.kind === 'current') {
      answeredNotModified(req, res, answer.etag);
      return;
    }
    writeImageHead(res, answer.head);
    if (answer.kind === 'stream') await pipeBody(answer.body, res);
    else res.end(answer.data);
  };
}
