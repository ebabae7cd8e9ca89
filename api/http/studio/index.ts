import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { notFound } from '../../../shared/errors/index.js';
import { projectRoot } from '../../../shared/paths.js';

// `/studio`: the Studio, the web app where the people of an organization write and publish. Its
// source is api/studio/; `npm run build` bundles it into dist/studio/, served from here by the API
// process itself. It holds no data: the browser signs in and calls the public REST API.
export const STUDIO_DIR = path.join(projectRoot, 'dist', 'studio');

/** Only this origin's scripts, styles and API; images also from blob: (previews of files being uploaded). */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const common = (res: Response) => res.set({ 'Content-Security-Policy': CSP, 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });

export function studioRoutes(): Router {
  const r = Router();
  // Hashed file names change with their content: a year, immutable. A missing one is a 404, not
  // the page (a stale tab asking for an old chunk must fail visibly, not parse HTML as script).
  r.use(
    '/studio/bundle',
    express.static(path.join(STUDIO_DIR, 'bundle'), { index: false, redirect: false, immutable: true, maxAge: '365d', setHeaders: (res) => common(res) }),
    (req, _res, next) => next(notFound(`Studio file ${req.originalUrl}`)),
  );
  // Every other path under /studio is a screen of the app: the page, never cached, so a new
  // build is picked up on the next load.
  r.get(['/studio', '/studio/{*screen}'], (_req, res) => {
    const page = path.join(STUDIO_DIR, 'index.html');
    common(res);
    if (!existsSync(page)) {
      res.status(503).type('text/plain').send('The Studio is not built: run `npm run build` (npm start does it).\n');
      return;
    }
    res.set('Cache-Control', 'no-cache');
    res.sendFile(page);
  });
  return r;
}
