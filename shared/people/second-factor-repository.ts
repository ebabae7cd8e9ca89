import type { Queryable } from '../adapters/db/index.js';
import { recoveryCodeHash } from './totp.js';

// A person's TOTP secret (pending while enrollment waits for its first code) and recovery codes.

export interface SecondFactorState {
  secret: string | null;
  pendingSecret: string | null;
}

export async function secondFactorOf(db: Queryable, personId: string): Promise<SecondFactorState> {
  const { rows } = await db.query<{ totp_secret: string | null; totp_pending_secret: string | null }>(
    'SELECT totp_secret, totp_pending_secret FROM people WHERE id = $1',
    [personId],
  );
  return { secret: rows[0]?.totp_secret ?? null, pendingSecret: rows[0]?.totp_pending_secret ?? null };
}

export async function setPendingSecret(db: Queryable, personId: string, secret: string): Promise<void> {
  await db.query('UPDATE people SET totp_pending_secret = $2 WHERE id = $1', [personId, secret]);
}

/** Makes the pending secret the person's second factor, with `step` as the last code used. */
export async function activatePendingSecret(tx: Queryable, personId: string, step: number): Promise<void> {
  await tx.query('UPDATE people SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $2 WHERE id = $1', [personId, step]);
}

export async function clearSecondFactor(tx: Queryable, personId: string): Promise<void> {
  await tx.query('UPDATE people SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL WHERE id = $1', [personId]);
  await tx.query('DELETE FROM recovery_codes WHERE person_id = $1', [personId]);
}

/** Records `step` as used; false when it (or a later one) was used already: a replayed code. */
export async function takeTotpStep(db: Queryable, personId: string, step: number): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    'UPDATE people SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id',
    [personId, step],
  );
  return rows.length > 0;
}

export async function replaceRecoveryCodes(tx: Queryable, personId: string, codes: string[]): Promise<void> {
  await tx.query('DELETE FROM recovery_codes WHERE person_id = $1', [personId]);
  await tx.query(`INSERT INTO recovery_codes (person_id, hash) SELECT $1, decode(h, 'hex') FROM unnest($2::text[]) AS h`, [
    personId,
    codes.map((c) => recoveryCodeHash(c).toString('hex')),
  ]);
}

/** Uses one recovery code; false when unknown or used. */
export async function takeRecoveryCode(db: Queryable, personId: string, code: string): Promise<boolean> {
  const { rows } = await db.query<{ person_id: string }>(
    'UPDATE recovery_codes SET used_at = now() WHERE person_id = $1 AND hash = $2 AND used_at IS NULL RETURNING person_id',
    [personId, recoveryCodeHash(code)],
  );
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Queryable, personId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery_codes WHERE person_id = $1 AND used_at IS NULL', [personId]);
  return rows[0].n;
}
