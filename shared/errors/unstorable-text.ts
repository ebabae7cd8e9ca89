import { badRequest, type AppError } from './index.js';

/**
 * Postgres refuses the NUL character in text (22021) and in jsonb (22P05, the \u0000 escape),
 * wherever a string reaches it: an id in a path, a filter value, a field. That is the caller's
 * input, not our fault, so it answers 400 (GraphQL BAD_USER_INPUT) instead of a masked 500, and
 * the statement that raised it wrote nothing.
 */
const NUL_SQLSTATES = new Set(['22021', '22P05']);

export function asUnstorableText(err: unknown): AppError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !NUL_SQLSTATES.has(code)) return null;
  return badRequest('Text may not contain the NUL character (\\u0000).');
}
