import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { projectRoot } from '../../../shared/paths.js';

/** `GET /`: what this server is and where its entry points are, for a person or a tool that lands on the root. */
export function indexRoutes(): Router {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const body = ok({
    name: 'Folio',
    version,
    links: {
      graphql: '/graphql',
      openapi: '/api/openapi.json',
      health: '/healthz',
      readiness: '/readyz',
      dashboard: '/dashboard',
    },
  });
  const r = Router();
  r.get('/', (_req, res) => {
    res.json(body);
  });
  return r;
}
