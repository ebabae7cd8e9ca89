import type { Request } from 'express';
import { badRequest } from '../../../shared/errors/index.js';

/**
 * The entry version a write was made on, from `If-Match: "<versionId>"` (quotes optional);
 * undefined without the header or with `*` (any version). Several versions are not accepted.
 */
export function expectedVersionOf(req: Request): string | undefined {
  const header = req.headers['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  const value = header.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  if (value === '' || value.includes(',') || value.includes('"') || value.length > 100) {
    throw badRequest('If-Match must hold one entry version: If-Match: "<versionId>".', ['If-Match: one versionId, as the entry\'s versionId gives it']);
  }
  return value;
}
