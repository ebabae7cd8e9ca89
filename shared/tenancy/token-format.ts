import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62, randomBase62 } from '../ids.js';

/**
 * Tokens look like `folio_` + 40 random base62 characters + 6 base62 characters of CRC32 over
 * everything before them. The checksum rejects typos and truncations before any lookup, and the
 * fixed prefix lets secret scanners find leaked tokens. Publishable keys — delivery keys made to
 * be public, in pages and URLs — start `folio_pk_` instead, so scanners can tell them apart.
 */
export const TOKEN_PREFIX = 'folio_';
export const PUBLISHABLE_PREFIX = 'folio_pk_';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const TOKEN_SHAPE = new RegExp(`^(?:${PUBLISHABLE_PREFIX}|${TOKEN_PREFIX})[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62Fixed(n: number, width: number): string {
  let out = '';
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(width, '0');
}

const checksumOf = (body: string) => base62Fixed(crc32(body) >>> 0, CHECKSUM_LENGTH);

export function generateToken(kind: 'secret' | 'publishable' = 'secret'): string {
  const body = (kind === 'publishable' ? PUBLISHABLE_PREFIX : TOKEN_PREFIX) + randomBase62(RANDOM_LENGTH);
  return body + checksumOf(body);
}

export type TokenCheck = 'ok' | 'malformed' | 'bad-checksum';

export function checkTokenFormat(token: string): TokenCheck {
  if (!TOKEN_SHAPE.test(token)) return 'malformed';
  const body = token.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === token.slice(-CHECKSUM_LENGTH) ? 'ok' : 'bad-checksum';
}

export const isPublishableKey = (token: string): boolean => token.startsWith(PUBLISHABLE_PREFIX);

/** Tokens are stored only as this digest. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();
