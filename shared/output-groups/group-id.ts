import { badRequest } from '../errors/index.js';

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

/**
 * The `{id}` path segment: an int32. Anything else is a malformed request (400),
 * while a well-formed id that names no group of this project is a 404 further on.
 */
export function parseOutputGroupId(raw: string): number {
  if (!/^-?\d{1,10}$/.test(raw)) throw badRequest('The output group id must be an integer (int32).');
  const id = Number(raw);
  if (id > INT32_MAX || id < INT32_MIN) throw badRequest('The output group id must be an integer (int32).');
  return id;
}
