import type { IncomingMessage, ServerResponse } from 'node:http';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when the request's `If-None-Match` names `etag` (or `*`): the client's copy is current. */
export function clientHolds(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const tags = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes(etag) || tags.includes('*');
}

/** True when the client's cached copy (If-None-Match) is current; answers 304 then. */
export function answeredNotModified(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  if (!clientHolds(req, etag)) return false;
  res.statusCode = 304;
  res.end();
  return true;
}

/**
 * Whether a `Range` may be served as one (RFC 9110 §13.1.5): without `If-Range`, yes; with it,
 * only when it names the current representation — an entity tag compared strongly (a weak tag
 * never matches). A date never matches here: /files sends no Last-Modified to compare it with.
 * When it does not match, the whole file is the answer (200), never a part of another version.
 */
export function ifRangeMatches(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-range'];
  if (header === undefined) return true;
  return String(header).trim() === etag;
}

/** `Content-Disposition` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
