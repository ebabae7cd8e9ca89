import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * The TOTP second factor: enroll (secret and otpauth URL, on only once a first code confirms it),
 * sign-in then needs a code (401 with Folio-Second-Factor: required | invalid), a code is
 * accepted once, recovery codes work once each, wrong codes count towards the account's sign-in
 * limit, and the factor is turned off with a code. Codes are made by otplib from the secret, as
 * an authenticator app would.
 */

let t: TestApp;
let org: TestOrg;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('TOTP');
});

afterAll(async () => {
  await t?.close();
});

async function member(role = 'editor') {
  const email = `totp-${randomBase62(8).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  expect(signed.status).toBe(200);
  return { email, token: signed.body.result.token as string, id: signed.body.result.member.id as string };
}

/** The code an authenticator app shows `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Enrolls and confirms a second factor: the secret and the recovery codes. */
async function enable(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrolled = await t.json('/auth/totp/enroll', { method: 'POST', token });
  expect(enrolled.status).toBe(200);
  const confirmed = await t.json('/auth/totp/confirm', { token, body: { code: codeAt(enrolled.body.result.secret) } });
  expect(confirmed.status).toBe(200);
  return { secret: enrolled.body.result.secret, recoveryCodes: confirmed.body.result.recoveryCodes };
}

const signIn = (email: string, code?: string) => t.json('/auth/sign-in', { body: { email, password: PASSWORD, ...(code === undefined ? {} : { code }) } });

describe('TOTP second factor', () => {
  it('enrolls with a secret and otpauth URL, and is on only once a code confirms it', async () => {
    const m = await member();
    const enrolled = await t.json('/auth/totp/enroll', { method: 'POST', token: m.token });
    const { secret, otpauthUrl } = enrolled.body.result;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect([url.protocol, url.host, decodeURIComponent(url.pathname), url.searchParams.get('secret'), url.searchParams.get('issuer')]).toEqual([
      'otpauth:', 'totp', `/Folio:${m.email}`, secret, 'Folio',
    ]);
    // not on yet: sign-in needs no code
    expect((await t.json('/auth/totp', { token: m.token })).body.result).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await signIn(m.email)).status).toBe(200);

    const wrong = await t.json('/auth/totp/confirm', { token: m.token, body: { code: '000000' } });
    expect([wrong.status, wrong.headers.get('folio-second-factor'), wrong.body.errors]).toEqual([422, 'invalid', ['The second-factor code is wrong, expired or used already.']]);
    const confirmed = await t.json('/auth/totp/confirm', { token: m.token, body: { code: codeAt(secret) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.result.recoveryCodes).size).toBe(10);
    expect((await t.json('/auth/totp', { token: m.token })).body.result).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await t.json('/auth/me', { token: m.token })).body.result).toMatchObject({ secondFactor: true, credential: 'session' });
    expect((await t.json('/auth/totp/enroll', { method: 'POST', token: m.token })).status).toBe(409);
  });

  it('sign-in then needs a code: 401 required, 401 invalid, a code once, a recovery code once', async () => {
    const m = await member();
    const { secret, recoveryCodes } = await enable(m.token);
    const missing = await signIn(m.email);
    expect([missing.status, missing.headers.get('folio-second-factor'), missing.body.errors]).toEqual([
      401,
      'required',
      ['This account has a second factor: send "code" (the 6 digits of the authenticator app, or a recovery code).'],
    ]);
    const wrong = await signIn(m.email, '123456' === codeAt(secret) ? '654321' : '123456');
    expect([wrong.status, wrong.headers.get('folio-second-factor')]).toEqual([401, 'invalid']);
    // a wrong password says nothing about the second factor
    const badPassword = await t.json('/auth/sign-in', { body: { email: m.email, password: 'wrong password!', code: codeAt(secret) } });
    expect([badPassword.status, badPassword.headers.get('folio-second-factor')]).toEqual([401, null]);

    const next = codeAt(secret, 30);
    expect((await signIn(m.email, next)).status).toBe(200);
    expect((await signIn(m.email, next)).status).toBe(401); // the same code again: replay
    const recovery = recoveryCodes[0].toUpperCase();
    expect((await signIn(m.email, recovery)).status).toBe(200);
    expect((await signIn(m.email, recovery)).status).toBe(401);
    expect((await t.json('/auth/totp', { token: m.token })).body.result).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('wrong codes count towards the account limit: the 11th attempt is 429 even with the right code', async () => {
    const m = await member();
    const { secret } = await enable(m.token);
    for (let i = 0; i < 10; i++) expect((await signIn(m.email, 'zzzzz-zzzzz')).status).toBe(401);
    const limited = await signIn(m.email, codeAt(secret, 30));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is turned off with a code (or a recovery code), after which sign-in needs none', async () => {
    const m = await member();
    const { recoveryCodes } = await enable(m.token);
    const wrong = await t.json('/auth/totp/disable', { token: m.token, body: { code: '000000' } });
    expect([wrong.status, wrong.headers.get('folio-second-factor')]).toEqual([422, 'invalid']);
    expect((await t.json('/auth/totp/disable', { token: m.token, body: { code: recoveryCodes[1] } })).status).toBe(200);
    expect((await t.json('/auth/totp', { token: m.token })).body.result).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await signIn(m.email)).status).toBe(200);
    expect((await t.json('/auth/totp/disable', { token: m.token, body: { code: '000000' } })).status).toBe(409);

    const audit = await t.json(`/management/v1/audit-log?subjectType=member&subjectId=${m.id}`, { token: org.manageToken });
    expect(audit.status).toBe(200);
    const factor = audit.body.result.filter((r: { action: string }) => r.action.includes('second_factor'));
    expect(factor.map((r: { action: string; actor: { name: string } }) => [r.action, r.actor.name])).toEqual([
      ['member.second_factor_disabled', m.email],
      ['member.second_factor_enabled', m.email],
    ]);
  });

  it('refuses bad input, API tokens, and another organization', async () => {
    const m = await member();
    await t.json('/auth/totp/enroll', { method: 'POST', token: m.token });
    for (const body of [{}, { code: 123456 }, { code: '' }, { code: '1'.repeat(41) }, { code: '123456', extra: 1 }]) {
      const res = await t.json('/auth/totp/confirm', { token: m.token, body });
      expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
    }
    const other = await t.createOrg('Other');
    for (const [method, path] of [['GET', '/auth/totp'], ['POST', '/auth/totp/enroll'], ['POST', '/auth/totp/disable']] as const) {
      const res = await t.json(path, { method, token: other.manageToken, ...(method === 'POST' && path.endsWith('disable') ? { body: { code: '000000' } } : {}) });
      expect([res.status, res.body.success]).toEqual([403, false]);
    }
    expect((await t.json('/auth/totp', { token: 'folio_s_' + 'x'.repeat(43) })).status).toBe(401);
  });
});

describe('regenerating recovery codes', () => {
  it('with the password or a code: ten new codes, the old ones stop working, audited', async () => {
    const m = await member();
    const { secret, recoveryCodes: first } = await enable(m.token);
    const byPassword = await t.json('/auth/totp/recovery-codes', { token: m.token, body: { password: PASSWORD } });
    expect(byPassword.status).toBe(200);
    const second = byPassword.body.result.recoveryCodes as string[];
    expect(second).toHaveLength(10);
    expect(second.filter((c) => first.includes(c))).toEqual([]);
    expect((await t.json('/auth/totp', { token: m.token })).body.result).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await signIn(m.email, first[0])).status).toBe(401);

    // the code after the one that confirmed (each code is accepted once)
    const byCode = await t.json('/auth/totp/recovery-codes', { token: m.token, body: { code: codeAt(secret, 30) } });
    expect(byCode.status).toBe(200);
    const third = byCode.body.result.recoveryCodes as string[];
    expect((await signIn(m.email, second[0])).status).toBe(401);
    expect((await signIn(m.email, third[0])).status).toBe(200);
    // an unused recovery code proves the account too, and is spent by it
    expect((await t.json('/auth/totp/recovery-codes', { token: m.token, body: { code: third[1] } })).status).toBe(200);

    const audit = await t.json(`/management/v1/audit-log?action=member.recovery_codes_regenerated&subjectId=${m.id}`, { token: org.manageToken });
    expect(audit.body.result.map((r: { changes: { proof: string }; actor: { name: string } }) => [r.changes.proof, r.actor.name])).toEqual([
      ['code', m.email],
      ['code', m.email],
      ['password', m.email],
    ]);
  });

  it('refuses a wrong proof (422, nothing changes), attempts past the limit are 429; 409 without a factor', async () => {
    const m = await member();
    const none = await t.json('/auth/totp/recovery-codes', { token: m.token, body: { password: PASSWORD } });
    expect([none.status, none.body.success]).toEqual([409, false]);
    const { recoveryCodes } = await enable(m.token);
    const wrongPassword = await t.json('/auth/totp/recovery-codes', { token: m.token, body: { password: 'not the password' } });
    expect([wrongPassword.status, wrongPassword.body.errors[0]]).toEqual([422, 'The password is wrong.']);
    const wrongCode = await t.json('/auth/totp/recovery-codes', { token: m.token, body: { code: '000000' } });
    expect([wrongCode.status, wrongCode.headers.get('folio-second-factor')]).toEqual([422, 'invalid']);
    expect((await t.json('/auth/totp', { token: m.token })).body.result.recoveryCodesLeft).toBe(10);
    expect((await signIn(m.email, recoveryCodes[0])).status).toBe(200);
  });

  it('limits attempts per account: past the bucket, 429 with Retry-After even with the right password', async () => {
    // an app of its own with a small bucket (the suite's apps take a million failures)
    const small = await startTestApp({ workers: false, env: { AUTH_FAILURES_BURST: '4', AUTH_FAILURES_PER_MINUTE: '1' } });
    try {
      const o = await small.createOrg('Small bucket');
      const email = `bucket-${randomBase62(8).toLowerCase()}@example.test`;
      const invited = await small.json('/management/v1/invitations', { token: o.manageToken, body: { email, role: 'viewer' } });
      await small.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
      const token = (await small.json('/auth/sign-in', { body: { email, password: PASSWORD } })).body.result.token as string;
      const enrolled = await small.json('/auth/totp/enroll', { method: 'POST', token });
      expect((await small.json('/auth/totp/confirm', { token, body: { code: codeAt(enrolled.body.result.secret) } })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await small.json('/auth/totp/recovery-codes', { token, body: { password: 'still wrong' } })).status);
      expect(statuses).toEqual([422, 422, 422, 422]);
      // a 429 tells nothing about a guess: the right password waits too
      const limited = await small.json('/auth/totp/recovery-codes', { token, body: { password: PASSWORD } });
      expect([limited.status, limited.body.success, Number(limited.headers.get('retry-after')) > 0]).toEqual([429, false, true]);
    } finally {
      await small.close();
    }
  });

  it('refuses bad input, personal and API tokens, and touches only the caller', async () => {
    const m = await member();
    const { recoveryCodes } = await enable(m.token);
    for (const body of [{}, { password: '' }, { code: 123456 }, { password: PASSWORD, extra: 1 }, { code: '1'.repeat(41) }]) {
      const res = await t.json('/auth/totp/recovery-codes', { token: m.token, body });
      expect([res.status, res.body.success, JSON.stringify(body)]).toEqual([400, false, JSON.stringify(body)]);
    }
    const pat = await t.json('/auth/tokens', { token: m.token, body: { name: 'script', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
    const viaPat = await t.json('/auth/totp/recovery-codes', { token: pat.body.result.token, body: { password: PASSWORD } });
    expect([viaPat.status, viaPat.body.success]).toEqual([403, false]);
    const other = await t.createOrg('Other recovery');
    const viaOtherToken = await t.json('/auth/totp/recovery-codes', { token: other.manageToken, body: { password: PASSWORD } });
    expect([viaOtherToken.status, viaOtherToken.body.success]).toEqual([403, false]);
    // a member of another organization regenerates their own codes only
    const invited = await t.json('/management/v1/invitations', { token: other.manageToken, body: { email: `other-${randomBase62(6).toLowerCase()}@example.test`, role: 'admin' } });
    await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
    const otherSession = (await t.json('/auth/sign-in', { body: { email: invited.body.result.email, password: PASSWORD } })).body.result.token as string;
    await enable(otherSession);
    expect((await t.json('/auth/totp/recovery-codes', { token: otherSession, body: { password: PASSWORD } })).status).toBe(200);
    expect((await signIn(m.email, recoveryCodes[0])).status).toBe(200);
    expect((await t.json('/auth/totp/recovery-codes', { body: { password: PASSWORD } })).status).toBe(401);
  });
});
