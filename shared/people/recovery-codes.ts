import { recordAudit } from '../audit/record-audit.js';
import { conflict, rateLimited, unprocessable } from '../errors/index.js';
import type { Services } from '../services.js';
import { verifyPassword } from './passwords.js';
import { checkSecondFactor } from './second-factor-service.js';
import { replaceRecoveryCodes, secondFactorOf } from './second-factor-repository.js';
import { newRecoveryCodes } from './totp.js';

type Deps = Pick<Services, 'db' | 'rateLimiter' | 'config'>;

/**
 * New recovery codes in place of all the old ones (used or not), shown once. The session alone is
 * not enough — a session left open on a shared computer must not mint codes that sign in later —
 * so the member proves the account again with the current password or a second-factor code.
 * Attempts take from a bucket per person (the failed-authentication bucket's size and refill):
 * past it, 429, so a stolen session cannot guess the password or the six digits here.
 */
export async function regenerateRecoveryCodes(
  services: Deps,
  member: { id: string },
  orgId: string,
  proof: { password?: string; code?: string },
): Promise<{ recoveryCodes: string[] }> {
  const { secret } = await secondFactorOf(services.db, member.id);
  if (secret === null) throw conflict('No second factor is enabled: recovery codes come with one (POST /auth/totp/enroll).');
  // every attempt takes from the bucket before any check, so once it is dry even the right
  // password waits: a 429 then says nothing about whether a guess was right
  const d = await services.rateLimiter.consume(`reauth-attempts:${member.id}`, 1, services.config.authFailures).catch(() => null);
  if (d && !d.allowed) throw rateLimited(d.retryAfterSeconds, 'Too many attempts to prove this account; retry later.');
  if (proof.password !== undefined) {
    const { rows } = await services.db.query<{ password_hash: string | null }>('SELECT password_hash FROM people WHERE id = $1', [member.id]);
    const hash = rows[0]?.password_hash ?? null;
    if (hash === null && proof.code === undefined) throw unprocessable('This account has no password (it signs in through single sign-on): send "code" instead.');
    if (hash !== null && !(await verifyPassword(hash, proof.password))) throw unprocessable('The password is wrong.');
  }
  if (proof.code !== undefined) await checkSecondFactor(services.db, member, proof.code, 'UNPROCESSABLE');
  return services.db.transaction(async (tx) => {
    const recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(tx, member.id, recoveryCodes);
    await recordAudit(tx, orgId, [
      { action: 'member.recovery_codes_regenerated', subject: { type: 'member', id: member.id }, changes: { proof: proof.code !== undefined ? 'code' : 'password' } },
    ]);
    return { recoveryCodes };
  });
}
