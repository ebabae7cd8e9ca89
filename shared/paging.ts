import { badRequest } from './errors/index.js';
import type { Page } from './envelope.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

function intParam(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw badRequest(`${name} must be an integer between ${min} and ${max}.`);
  const n = Number(value);
  if (n < min || n > max) throw badRequest(`${name} must be an integer between ${min} and ${max}.`);
  return n;
}

/** `pageIndex` (1-based, default 1) and `pageSize` (default 20, max 100) from a query string. */
export function parsePage(query: Record<string, unknown>): Page & { offset: number; limit: number } {
  const pageIndex = intParam(query.pageIndex, 'pageIndex', 1, 1_000_000, 1);
  const pageSize = intParam(query.pageSize, 'pageSize', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  return { pageIndex, pageSize, offset: (pageIndex - 1) * pageSize, limit: pageSize };
}
