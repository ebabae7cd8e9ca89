import { hash, verify } from '@node-rs/argon2';
import { badRequest } from '../errors/index.js';

/**
 * Passwords are stored as argon2id PHC strings (the library's default algorithm; `algorithm: 2`
 * names it, since the enum is a `const enum` the compiler cannot import here).
 * 19 MiB, 2 passes: OWASP's minimum for argon2id, about 30 ms a hash on one core.
 */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 10;

export function checkPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1000) throw badRequest('The password must have at most 1000 characters.');
}

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** A hash to verify against when the account does not exist, so both cases take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    await verify(await (decoy ??= hashPassword('decoy password of no account')), password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
