import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from base62 (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Service-generated ids for entries, assets, sections…: 20 base62 characters (~119 bits). */
export const newId = (): string => randomBase62(20);

/** Version ids change on every write. */
export const newVersionId = (): string => randomBase62(16);

export const newUuid = (): string => randomUUID();

export { BASE62 };
