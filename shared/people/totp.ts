import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { hashSecret } from './secret-links.js';

// TOTP (RFC 6238, the authenticator apps' 6 digits every 30 s) through otplib, and the recovery
// codes that stand in for it once each.

/** Seconds of clock drift accepted either way: one step before and after. */
const TOLERANCE_SECONDS = 30;

export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URL an authenticator app reads (from a QR code, or pasted). */
export const otpauthUrl = (secret: string, email: string, issuer: string): string => generateURI({ issuer, label: email, secret });

/** The time step of a valid `code`, or null (wrong, malformed, or out of the tolerance). */
export function totpStep(secret: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = verifySync({ secret, token: code, epochTolerance: TOLERANCE_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Whether `code` has the shape of a TOTP code (else it is taken as a recovery code). */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.trim());

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes like `k3m9p-x2t7q` (~50 bits each), shown once. */
export function newRecoveryCodes(count = 10): string[] {
  const part = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => `${part()}-${part()}`);
}

/** A recovery code as stored: case and dashes do not matter when it is typed. */
export const recoveryCodeHash = (code: string): Buffer => hashSecret(code.trim().toLowerCase().replace(/[^a-z0-9]/g, ''));
