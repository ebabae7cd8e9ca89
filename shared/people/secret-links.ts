import { createHash } from 'node:crypto';
import { randomBase62 } from '../ids.js';

/**
 * Session tokens, invitation and password-reset tokens: opaque random strings stored only as
 * SHA-256, like API tokens. Session tokens carry the `folio_s_` prefix so the authenticator (and
 * secret scanners) tell them from API tokens.
 */
export const SESSION_PREFIX = 'folio_s_';
const SESSION_SHAPE = /^folio_s_[0-9A-Za-z]{43}$/;
const LINK_SHAPE = /^[0-9A-Za-z]{43}$/;

export const newSessionToken = (): string => SESSION_PREFIX + randomBase62(43);
export const isSessionToken = (token: string): boolean => token.startsWith(SESSION_PREFIX);
export const isWellFormedSessionToken = (token: string): boolean => SESSION_SHAPE.test(token);

/** The token of an invitation or a password-reset link (~256 bits). */
export const newLinkToken = (): string => randomBase62(43);
export const isWellFormedLinkToken = (token: string): boolean => LINK_SHAPE.test(token);

export const hashSecret = (token: string): Buffer => createHash('sha256').update(token).digest();
