import { badRequest } from '../../errors/index.js';
import { RangeNotSatisfiableError, type ByteRange } from './blob-store.js';

/** Both stores refuse the same malformed ranges before touching storage. */
export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw badRequest('Invalid byte range.');
  }
}

/** Clamps `end` to the object; a start at or past the end cannot be served (HTTP 416). */
export function clampRange(key: string, range: ByteRange, size: number): { start: number; end: number } {
  assertValidRange(range);
  if (range.start >= size) throw new RangeNotSatisfiableError(key, size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}
