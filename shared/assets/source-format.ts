import type { OutputFormat } from './types.js';

/**
 * Content types sharp can decode and re-encode here. Others (SVG, HEIC, PDF…) are served only
 * as originals: SVG because rasterizing untrusted XML is a risk not worth taking.
 */
const TRANSFORMABLE: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  // TIFF has no browser support: derivatives of it are JPEG.
  'image/tiff': 'jpeg',
};

export const isTransformable = (contentType: string): boolean => contentType in TRANSFORMABLE;

/** The derivative format when no preset picks one: the source's own, when browsers show it. */
export const defaultOutputFormat = (contentType: string): OutputFormat => TRANSFORMABLE[contentType] ?? 'jpeg';
