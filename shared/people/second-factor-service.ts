import { recordAudit } from '../audit/record-audit.js';
import { AppError, conflict } from '../errors/index.js';
import type { Services } from '../services.js';
import {
  activatePendingSecret,
  clearSecondFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  secondFactorOf,
  setPendingSecret,
  takeRecoveryCode,
  takeTotpStep,
} from './second-factor-repository.js';
import { isTotpCode, newRecoveryCodes, newTotpSecret, otpauthUrl, totpStep } from './totp.js';

// A member's second factor: enroll (a secret, confirmed by a first code), sign-in with a code
// (or a recovery code), disable with a code.

type Deps = Pick<Services, 'db'>;

/** The header naming what the second factor lacks on a 401: `required` or `invalid`. */
export const SECOND_FACTOR_HEADER = 'Folio-Second-Factor';

/** Signing in, a missing or wrong code is 401; for a signed-in member confirming or disabling, 422. */
const secondFactorError = (kind: 'required' | 'invalid', code: 'UNAUTHENTICATED' | 'UNPROCESSABLE' = 'UNAUTHENTICATED') =>
  new AppError(
    code,
    kind === 'required'
      ? 'This account has a second factor: send "code" (the 6 digits of the authenticator app, or a recovery code).'
      : 'The second-factor code is wrong, expired or used already.',
    { headers: { [SECOND_FACTOR_HEADER]: kind } },
  );

/** Refuses (401 with `Folio-Second-Factor`) unless `code` is a current TOTP code or an unused recovery code. */
export async function checkSecondFactor(
  db: Deps['db'],
  person: { id: string },
  code: string | undefined,
  refusal: 'UNAUTHENTICATED' | 'UNPROCESSABLE' = 'UNAUTHENTICATED',
): Promise<void> {
  const { secret } = await secondFactorOf(db, person.id);
  if (secret === null) return;
  if (code === undefined || code.trim() === '') throw secondFactorError('required', refusal);
  if (isTotpCode(code)) {
    const step = totpStep(secret, code.trim());
    if (step !== null && (await takeTotpStep(db, person.id, step))) return;
  } else if (await takeRecoveryCode(db, person.id, code)) {
    return;
  }
  throw secondFactorError('invalid', refusal);
}

export async function secondFactorStatus(db: Deps['db'], personId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const { secret } = await secondFactorOf(db, personId);
  return { enabled: secret !== null, recoveryCodesLeft: secret === null ? 0 : await recoveryCodesLeft(db, personId) };
}

/** Starts enrollment: a new pending secret and its otpauth:// URL (nothing changes until confirmed). */
export async function enrollSecondFactor(services: Deps, member: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string }> {
  const state = await secondFactorOf(services.db, member.id);
  if (state.secret !== null) throw conflict('A second factor is enabled already: disable it first (POST /auth/totp/disable with a code).');
  const secret = newTotpSecret();
  await setPendingSecret(services.db, member.id, secret);
  return { secret, otpauthUrl: otpauthUrl(secret, member.email, 'Folio') };
}

/** Confirms enrollment with a first code: the factor is on, and ten recovery codes are shown once. */
export async function confirmSecondFactor(services: Deps, member: { id: string }, orgId: string, code: string): Promise<{ enabled: true; recoveryCodes: string[] }> {
  return services.db.transaction(async (tx) => {
    const state = await secondFactorOf(tx, member.id);
    if (state.secret !== null) throw conflict('A second factor is enabled already.');
    if (state.pendingSecret === null) throw conflict('No enrollment is under way: POST /auth/totp/enroll first.');
    const step = totpStep(state.pendingSecret, code.trim());
    if (step === null) throw secondFactorError('invalid', 'UNPROCESSABLE');
    await activatePendingSecret(tx, member.id, step);
    const recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, member.id, recoveryCodes);
    await recordAudit(tx, orgId, [{ action: 'member.second_factor_enabled', subject: { type: 'member', id: member.id }, changes: null }]);
    return { enabled: true as const, recoveryCodes };
  });
}

/** Turns the second factor off, proven with a current code or a recovery code. */
export async function disableSecondFactor(services: Deps, member: { id: string }, orgId: string, code: string): Promise<void> {
  const state = await secondFactorOf(services.db, member.id);
  if (state.secret === null) throw conflict('No second factor is enabled.');
  await checkSecondFactor(services.db, member, code, 'UNPROCESSABLE');
  await services.db.transaction(async (tx) => {
    await clearSecondFactor(tx, member.id);
    await recordAudit(tx, orgId, [{ action: 'member.second_factor_disabled', subject: { type: 'member', id: member.id }, changes: null }]);
  });
}
