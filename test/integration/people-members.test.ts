import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Members and sessions end to end: an invitation emailed through a real SMTP receiver, accepted
 * with a password, sign-in, the session as cookie (flags, CSRF) and as bearer, sessions listed and
 * revoked, password reset by email, the per-account sign-in limit, members and their roles.
 */

interface Mail {
  to: string;
  text: string;
}

let t: TestApp;
let org: TestOrg;
let smtp: SMTPServer;
const inbox: Mail[] = [];

const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  t = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Folio <folio@example.test>' } });
  org = await t.createOrg('People');
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const mailTo = async (email: string): Promise<Mail> => {
  for (let i = 0; i < 100; i++) {
    const found = inbox.filter((m) => m.to === email).at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${email}`);
};

const uniqueEmail = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** Invites `email` with `role`, accepts with the password, signs in: the sign-in answer. */
async function join(email: string, role: string) {
  const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
  expect(invited.status).toBe(201);
  const accepted = await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  expect(accepted.status).toBe(200);
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  expect(signed.status).toBe(200);
  return signed;
}

describe('invitation → accept → sign in → act', () => {
  it('emails the link, accepts it once, signs in and acts with the session bearer', async () => {
    const email = uniqueEmail('ada');
    const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email: email.toUpperCase(), role: 'editor' } });
    expect(invited.status).toBe(201);
    const { url, token, emailed, expiresAt } = invited.body.result;
    expect(emailed).toBe(true);
    expect(url).toContain(token);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect((await mailTo(email)).text).toContain(url);

    const weak = await t.json('/auth/invitations/accept', { body: { token, password: 'short' } });
    expect(weak.status).toBe(400);
    const accepted = await t.json('/auth/invitations/accept', { body: { token, password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.result).toMatchObject({ email, organizationId: org.orgId, role: 'editor' });
    const again = await t.json('/auth/invitations/accept', { body: { token, password: PASSWORD } });
    expect(again.status).toBe(401);

    const wrong = await t.json('/auth/sign-in', { body: { email, password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toEqual(['The email or password is wrong.']);
    const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(signed.status).toBe(200);
    const session = signed.body.result.token as string;
    expect(session).toMatch(/^folio_s_/);

    const me = await t.json('/auth/me', { token: session });
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ email, role: 'editor', organization: { id: org.orgId, slug: org.slug } });

    const members = await t.json('/management/v1/members', { token: session });
    expect([members.status, members.body.errors]).toEqual([403, ['Your role may not change members.']]);
    const entries = await t.json('/management/v1/entries', { token: session });
    expect(entries.status).toBe(200);
  });

  it('the session works only in its organization: another organization is 404/403, never a leak', async () => {
    const other = await t.createOrg('Other');
    const signed = await join(uniqueEmail('bob'), 'admin');
    const token = signed.body.result.token;
    const members = await t.json('/management/v1/members', { token });
    expect(members.status).toBe(200);
    expect(members.body.result.every((m: { email: string }) => !m.email.startsWith('x'))).toBe(true);
    const otherMembers = await t.json('/management/v1/members', { token: other.manageToken });
    expect(otherMembers.body.result).toEqual([]);
    const signInOther = await t.json('/auth/sign-in', { body: { email: signed.body.result.member.email, password: PASSWORD, organization: other.slug } });
    expect(signInOther.status).toBe(403);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Secure behind TLS; a cookie write without the CSRF token is 403', async () => {
    const email = uniqueEmail('cookie');
    await join(email, 'admin');
    const res = await t.fetch('/auth/sign-in', { body: { email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { token: string; csrfToken: string } };
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('folio_session='))!;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; SameSite=Lax/);
    const csrfCookie = cookies.find((c) => c.startsWith('folio_csrf='))!;
    expect(csrfCookie).not.toMatch(/HttpOnly/);

    const plain = await t.fetch('/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(plain.headers.getSetCookie().find((c) => c.startsWith('folio_session='))).not.toMatch(/Secure/);

    const cookie = `folio_session=${body.result.token}`;
    const read = await t.json('/management/v1/members', { headers: { cookie } });
    expect(read.status).toBe(200);
    const site = { name: 'Cookie site' };
    const noCsrf = await t.json('/management/v1/sites', { headers: { cookie }, body: site });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.errors[0]).toMatch(/X-CSRF-Token/);
    const badCsrf = await t.json('/management/v1/sites', { headers: { cookie, 'x-csrf-token': 'x'.repeat(43) }, body: site });
    expect(badCsrf.status).toBe(403);
    const withCsrf = await t.json('/management/v1/sites', { headers: { cookie, 'x-csrf-token': body.result.csrfToken }, body: site });
    expect(withCsrf.status).toBe(201);
    // the bearer needs no CSRF token: a browser never sends it on its own
    const bearer = await t.json('/management/v1/sites', { token: body.result.token, body: site });
    expect(bearer.status).toBe(201);
  });
});

describe('sessions', () => {
  it('lists one’s sessions, revokes one, signs out; revoked sessions are 401 at once', async () => {
    const email = uniqueEmail('sess');
    const first = (await join(email, 'viewer')).body.result;
    const second = (await t.json('/auth/sign-in', { body: { email, password: PASSWORD } })).body.result;
    const list = await t.json('/auth/sessions', { token: second.token });
    expect(list.status).toBe(200);
    expect(list.body.result.map((s: { id: string }) => s.id).sort()).toEqual([first.session.id, second.session.id].sort());
    expect(list.body.result.find((s: { current: boolean }) => s.current).id).toBe(second.session.id);

    expect((await t.json('/auth/me', { token: first.token })).status).toBe(200); // cached now
    const revoked = await t.json(`/auth/sessions/${first.session.id}`, { method: 'DELETE', token: second.token });
    expect(revoked.status).toBe(200);
    const after = await t.json('/auth/me', { token: first.token });
    expect(after.status).toBe(401);
    expect(after.body.errors[0]).toMatch(/sign in again/);

    const out = await t.json('/auth/sign-out', { method: 'POST', token: second.token });
    expect(out.status).toBe(200);
    expect((await t.json('/auth/me', { token: second.token })).status).toBe(401);
  });

  it("another person's session cannot be revoked (404), and API tokens are not members (403)", async () => {
    const a = (await join(uniqueEmail('a'), 'viewer')).body.result;
    const b = (await join(uniqueEmail('b'), 'viewer')).body.result;
    const res = await t.json(`/auth/sessions/${a.session.id}`, { method: 'DELETE', token: b.token });
    expect(res.status).toBe(404);
    expect((await t.json('/auth/me', { token: a.token })).status).toBe(200);
    expect((await t.json('/auth/me', { token: org.manageToken })).status).toBe(403);
  });
});

describe('password reset by email', () => {
  it('mails a one-time link; the new password works, the old one and every old session do not', async () => {
    const email = uniqueEmail('reset');
    const before = (await join(email, 'viewer')).body.result;
    const unknown = await t.json('/auth/password-reset', { body: { email: uniqueEmail('nobody') } });
    const asked = await t.json('/auth/password-reset', { body: { email } });
    expect([unknown.status, asked.status]).toEqual([202, 202]);
    expect(unknown.body.messages).toEqual(asked.body.messages);
    const mail = await mailTo(email);
    const token = /"token": "([0-9A-Za-z]{43})"/.exec(mail.text)![1];
    const reset = await t.json('/auth/password-reset/confirm', { body: { token, password: 'a brand new password' } });
    expect(reset.status).toBe(200);
    expect((await t.json('/auth/password-reset/confirm', { body: { token, password: 'a brand new password' } })).status).toBe(401);
    expect((await t.json('/auth/me', { token: before.token })).status).toBe(401);
    expect((await t.json('/auth/sign-in', { body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await t.json('/auth/sign-in', { body: { email, password: 'a brand new password' } })).status).toBe(200);
  });
});

describe('brute force', () => {
  it('after 10 failed sign-ins within 15 minutes the account answers 429 with Retry-After, even with the right password', async () => {
    const email = uniqueEmail('brute');
    await join(email, 'viewer');
    for (let i = 0; i < 10; i++) {
      const res = await t.json('/auth/sign-in', { body: { email, password: `guess number ${i}` } });
      expect(res.status).toBe(401);
    }
    const refused = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(refused.body.errors).toEqual(['Too many failed sign-ins for this account; retry later.']);
  });

  it('limits failures per client address too', async () => {
    const limited = await startTestApp({ workers: false, env: { AUTH_FAILURES_BURST: '3' } });
    try {
      const o = await limited.createOrg('Limited');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.json('/auth/sign-in', { body: { email: uniqueEmail('x'), password: 'whatever pass' }, headers: { 'x-forwarded-for': '203.0.113.9' } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const elsewhere = await limited.json('/auth/sign-in', { body: { email: uniqueEmail('x'), password: 'whatever pass' }, headers: { 'x-forwarded-for': '203.0.113.10' } });
      expect(elsewhere.status).toBe(401);
      expect(o.orgId).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});

describe('members and roles', () => {
  it('lists members and changes a role; a member without the members area gets 403', async () => {
    const editor = (await join(uniqueEmail('ed'), 'editor')).body.result;
    const admin = (await join(uniqueEmail('ad'), 'admin')).body.result;
    const list = await t.json('/management/v1/members?pageSize=100', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.result.find((m: { id: string }) => m.id === editor.member.id)).toMatchObject({ role: 'editor', email: editor.member.email });

    expect((await t.json('/management/v1/members', { token: editor.token })).status).toBe(403);
    const invite = await t.json('/management/v1/invitations', { token: editor.token, body: { email: uniqueEmail('z'), role: 'viewer' } });
    expect(invite.status).toBe(403);

    const changed = await t.json(`/management/v1/members/${editor.member.id}`, { method: 'PATCH', token: admin.token, body: { role: 'author' } });
    expect(changed.status).toBe(200);
    expect(changed.body.result.role).toBe('author');
    const owner = await t.json(`/management/v1/members/${editor.member.id}`, { method: 'PATCH', token: admin.token, body: { role: 'owner' } });
    expect(owner.status).toBe(403);
    const unknownRole = await t.json(`/management/v1/members/${editor.member.id}`, { method: 'PATCH', token: admin.token, body: { role: 'wizard' } });
    expect(unknownRole.status).toBe(422);
    const nobody = await t.json('/management/v1/members/nobody', { method: 'PATCH', token: admin.token, body: { role: 'viewer' } });
    expect(nobody.status).toBe(404);
    // the role applies to the live session within the cache TTL (a new sign-in at once)
    const again = (await t.json('/auth/sign-in', { body: { email: editor.member.email, password: PASSWORD } })).body.result;
    expect((await t.json('/auth/me', { token: again.token })).body.result.role).toBe('author');
  });
});
