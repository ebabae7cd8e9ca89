import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Response } from 'express';
import { isAppError } from '../../../shared/errors/index.js';
import { projectRoot } from '../../../shared/paths.js';
import type { Services } from '../../../shared/services.js';
import { openSharedLink } from '../analytics/shared-links.js';

/**
 * `/dashboard`: the analytics dashboard, a page of Folio's own that works offline — its script,
 * styles and the charting library (uPlot, MIT) are served from here, nothing from elsewhere. It
 * holds no data: the browser signs in with an analytics token (or the Studio's session) and reads
 * the analytics API. `/dashboard/shared/<secret>` is the same page for a shared link's holder, who
 * reads that one distribution through /api/v1/shared/<secret>/…; a dead link's page is a 404.
 */
const PAGE_DIR = path.join(projectRoot, 'api', 'http', 'dashboard', 'page');
const UPLOT_DIR = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));

/** Only this origin's scripts, styles and API: a token typed into the page goes nowhere else. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const FILES: Record<string, string> = {
  '/dashboard': path.join(PAGE_DIR, 'index.html'),
  '/dashboard/dashboard.js': path.join(PAGE_DIR, 'dashboard.js'),
  '/dashboard/dashboard.css': path.join(PAGE_DIR, 'dashboard.css'),
  '/dashboard/vendor/uPlot.iife.min.js': path.join(UPLOT_DIR, 'uPlot.iife.min.js'),
  '/dashboard/vendor/uPlot.min.css': path.join(UPLOT_DIR, 'uPlot.min.css'),
};

function send(res: Response, file: string, cache = 'no-cache'): void {
  res.set({ 'Content-Security-Policy': CSP, 'Cache-Control': cache, 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });
  res.sendFile(file);
}

export function dashboardRoutes(services: Services): Router {
  const r = Router();
  for (const [route, file] of Object.entries(FILES)) r.get(route, (_req, res) => send(res, file));
  r.get('/dashboard/shared/:secret', async (req, res, next) => {
    try {
      await openSharedLink(services, String(req.params.secret));
    } catch (err) {
      if (!isAppError(err) || err.code !== 'NOT_FOUND') return next(err);
      res.status(404).set({ 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('text/plain');
      res.send('This shared link is unknown, revoked or expired.\n');
      return;
    }
    // the secret is in the address: no cache keeps the page, no referrer carries it away
    send(res, FILES['/dashboard'], 'no-store');
  });
  return r;
}
