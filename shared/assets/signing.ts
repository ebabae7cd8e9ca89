import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Public asset URLs are signed with HMAC-SHA256 over the path that follows the signature, so a
 * changed width, asset or version invalidates the URL. 16 bytes of the MAC (base64url, 22
 * characters) keep URLs short while leaving forgery at 2^-128.
 */
const MAC_BYTES = 16;

export function signPath(secret: Buffer, message: string): string {
  return createHmac('sha256', secret).update(message).digest().subarray(0, MAC_BYTES).toString('base64url');
}

/** Constant-time comparison of a presented signature with the expected one. */
export function verifyPath(secret: Buffer, message: string, signature: string): boolean {
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== MAC_BYTES || given.toString('base64url') !== signature) return false;
  const expected = createHmac('sha256', secret).update(message).digest().subarray(0, MAC_BYTES);
  return timingSafeEqual(given, expected);
}
