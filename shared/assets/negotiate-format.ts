import type { OutputFormat } from './types.js';

/** The formats a browser may ask for, best first (smallest files for the same quality). */
const PREFERRED: readonly OutputFormat[] = ['avif', 'webp'];

/**
 * The format an `f_auto` derivative takes for a request: AVIF when its `Accept` names
 * `image/avif` (with a q above 0), else WebP likewise, else `fallback` — the source's format (a
 * GIF, which may be animated, is always left one). A
 * wildcard (`*\/*`, `image/*`) is not taken as support: browsers that decode AVIF or WebP say so.
 */
export function negotiateImageFormat(accept: string | undefined, fallback: OutputFormat): OutputFormat {
  // a GIF may be animated: it stays a GIF
  if (!accept || fallback === 'gif') return fallback;
  const accepted = new Set<string>();
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type);
  }
  return PREFERRED.find((f) => accepted.has(`image/${f}`)) ?? fallback;
}
