import type { z } from 'zod';
import { badRequest, unprocessable } from './errors/index.js';

function describePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out === '' ? 'body' : out;
}

/**
 * Parses input with a zod schema; on failure throws 400 (shape errors, the default) or 422
 * (semantic errors) with one readable reason per problem, each naming the field path.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, options: { status?: 400 | 422; what?: string } = {}): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues.map((i) => `${describePath(i.path)}: ${i.message}`);
  const message = `Invalid ${options.what ?? 'request body'}.`;
  throw options.status === 422 ? unprocessable(message, reasons) : badRequest(message, reasons);
}
