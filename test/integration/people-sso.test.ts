import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { freePort } from '../support/free-port.js';
import { startIdentityProvider, type TestIdentityProvider } from '../support/oidc-identity-provider.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Single sign-on settings and the doors around the browser flow (the flow itself runs in
 * test/e2e/sso-browser.test.ts): bad settings input, the secret never answered nor audited, who
 * may change the settings, another organization's token, the start's redirect (PKCE, state,
 * nonce, same-origin returnTo), a callback not started in this browser or with a wrong state,
 * and "SSO only" refusing passwords.
 */

let t: TestApp;
let org: TestOrg;
let idp: TestIdentityProvider;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await startTestApp({ env: { SSO_ALLOW_HTTP_ISSUERS: 'true', SSO_ALLOW_PRIVATE_ISSUERS: 'true' } });
  org = await t.createOrg('SSO settings');
  idp = await startIdentityProvider(`${t.baseUrl}/auth/sso/callback`);
});

afterAll(async () => {
  await idp?.close();
  await t?.close();
});

const settings = (extra: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  allowedDomains: ['corp.test'],
  defaultRole: 'viewer',
  ...extra,
});
const putSettings = (token: string, body: unknown) => t.json('/management/v1/sso', { method: 'PUT', token, body });

/** A member of `org` with `role`, signed in with a password: the sign-in answer. */
async function member(role: string, email = `${role}-${randomBase62(6).toLowerCase()}@corp.test`) {
  const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
  expect(invited.status).toBe(201);
  expect((await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  expect(signed.status).toBe(200);
  return { email, token: signed.body.result.token as string };
}

describe('single sign-on settings', () => {
  it('refuses bad input with the field named', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /issuer/],
      [settings({ issuer: 'not a url' }), 400, /issuer/],
      [settings({ allowedDomains: [] }), 400, /allowedDomains/],
      [settings({ allowedDomains: ['not a domain!'] }), 400, /allowedDomains/],
      [settings({ unknown: true }), 400, /unknown/],
      [settings({ ssoOnly: 'yes' }), 400, /ssoOnly/],
      [settings({ issuer: 'ftp://idp.corp.test' }), 422, /issuer: an http\(s\) URL/],
      [settings({ issuer: 'https://user:pw@idp.corp.test' }), 422, /no credentials/],
      [settings({ defaultRole: 'owner' }), 422, /cannot make owners/],
      [settings({ defaultRole: 'nobody' }), 422, /Unknown role "nobody"/],
      [settings({ roleMappings: [{ value: 'g', role: 'editor' }] }), 422, /roleClaim: required with roleMappings/],
      [settings({ roleClaim: 'groups', roleMappings: [{ value: 'g', role: 'owner' }] }), 422, /roleMappings.0.role/],
      [settings({ clientSecret: undefined }), 422, /clientSecret: required the first time/],
      [settings({ issuer: `http://127.0.0.1:${await freePort()}` }), 422, /could not be discovered/],
    ];
    for (const [body, status, message] of cases) {
      const res = await putSettings(org.manageToken, body);
      expect([res.status, res.body.success], JSON.stringify(body)).toEqual([status, false]);
      expect(res.body.errors.join(' '), JSON.stringify(body)).toMatch(message);
    }
    expect((await t.json('/management/v1/sso', { token: org.manageToken })).status).toBe(404);
  });

  it('saves valid settings, never answers nor audits the secret, and keeps it when absent', async () => {
    const saved = await putSettings(org.manageToken, settings({ issuer: `${idp.issuer}/` }));
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecretSet: true,
      allowedDomains: ['corp.test'],
      defaultRole: 'viewer',
      ssoOnly: false,
      redirectUri: `${t.baseUrl}/auth/sso/callback`,
      startUrl: `${t.baseUrl}/auth/sso/${org.slug}/start`,
    });
    const read = await t.json('/management/v1/sso', { token: org.manageToken });
    expect(JSON.stringify(read.body)).not.toContain(idp.clientSecret);

    const changed = await putSettings(org.manageToken, settings({ clientSecret: undefined, allowedDomains: ['corp.test', 'Sub.Corp.Test'] }));
    expect(changed.body.result.allowedDomains).toEqual(['corp.test', 'sub.corp.test']);
    const { rows } = await t.services.db.query<{ client_secret: string }>('SELECT client_secret FROM sso_settings WHERE org_id = $1', [org.orgId]);
    expect(rows[0].client_secret).toBe(idp.clientSecret);

    const audit = await t.json('/management/v1/audit-log?action=sso_settings.*', { token: org.manageToken });
    expect(audit.body.result.map((r: { action: string }) => r.action)).toEqual(['sso_settings.changed', 'sso_settings.created']);
    expect(audit.body.result[0].changes).toEqual({ allowedDomains: { before: ['corp.test'], after: ['corp.test', 'sub.corp.test'] } });
    expect(audit.body.result[1].changes).toMatchObject({ clientSecret: { changed: true }, issuer: { before: null, after: idp.issuer } });
    expect(JSON.stringify(audit.body)).not.toContain(idp.clientSecret);
  });

  it('owners, admins and developers change them; editors and API tokens without manage may not', async () => {
    const developer = await member('developer');
    expect((await t.json('/management/v1/sso', { token: developer.token })).status).toBe(200);
    const editor = await member('editor');
    const refused = await putSettings(editor.token, settings());
    expect([refused.status, refused.body.errors]).toEqual([403, ['Your role may not change sso.']]);
    const preview = await t.createToken(org.manageToken, ['preview']);
    expect((await t.json('/management/v1/sso', { token: preview })).status).toBe(403);
    expect((await t.json('/management/v1/sso', { method: 'DELETE', token: editor.token })).status).toBe(403);
  });

  it("another organization's token sees and changes only its own", async () => {
    const other = await t.createOrg('Other');
    expect((await t.json('/management/v1/sso', { token: other.manageToken })).status).toBe(404);
    expect((await t.json('/management/v1/sso', { method: 'DELETE', token: other.manageToken })).status).toBe(404);
    expect((await putSettings(other.manageToken, settings({ allowedDomains: ['other.test'] }))).status).toBe(200);
    const mine = await t.json('/management/v1/sso', { token: org.manageToken });
    expect(mine.body.result.allowedDomains).toEqual(['corp.test', 'sub.corp.test']);
    expect((await t.json('/management/v1/sso', { method: 'DELETE', token: other.manageToken })).status).toBe(200);
    expect((await t.json('/management/v1/sso', { token: org.manageToken })).status).toBe(200);
  });
});

describe('where an issuer may be', () => {
  it('not on loopback, private or link-local addresses unless SSO_ALLOW_PRIVATE_ISSUERS is set', async () => {
    const guarded = await startTestApp({ env: { SSO_ALLOW_HTTP_ISSUERS: 'true' } });
    try {
      const o = await guarded.createOrg('Guarded');
      for (const issuer of [idp.issuer, 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]:9']) {
        const res = await guarded.json('/management/v1/sso', { method: 'PUT', token: o.manageToken, body: settings({ issuer }) });
        expect([res.status, issuer]).toEqual([422, issuer]);
        expect(res.body.errors[0]).toMatch(/could not be discovered: .*(loopback|linkLocal)/);
      }
    } finally {
      await guarded.close();
    }
  });
});

describe('the start and the callback', () => {
  const start = (path: string) => fetch(`${t.baseUrl}${path}`, { redirect: 'manual', headers: { accept: 'application/json' } });

  it('redirects to the issuer with the authorization code flow, PKCE, state and nonce, and a pending cookie for the callback only', async () => {
    const res = await start(`/auth/sso/${org.slug}/start?returnTo=${encodeURIComponent('/auth/me?x=1')}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(idp.issuer);
    const q = location.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(idp.clientId);
    expect(q.get('redirect_uri')).toBe(`${t.baseUrl}/auth/sso/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^folio_sso=/);
    expect(cookie).toMatch(/Path=\/auth\/sso\/callback/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // by id as well as by slug
    expect((await start(`/auth/sso/${org.orgId}/start`)).status).toBe(302);
  });

  it('refuses a returnTo of another origin, an unknown organization, and one without single sign-on', async () => {
    for (const returnTo of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', 'http://localhost:1/x']) {
      const res = await start(`/auth/sso/${org.slug}/start?returnTo=${encodeURIComponent(returnTo)}`);
      expect([res.status, returnTo]).toEqual([400, returnTo]);
      expect((await res.json()).errors[0]).toMatch(/^returnTo: /);
    }
    expect((await start('/auth/sso/no-such-org/start')).status).toBe(404);
    const other = await t.createOrg('No SSO');
    expect((await start(`/auth/sso/${other.slug}/start`)).status).toBe(404);
    // a browser gets a page saying why
    const page = await fetch(`${t.baseUrl}/auth/sso/no-such-org/start`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect([page.status, page.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('Single sign-on for this organization not found.');
  });

  it('a test sign-in: test takes 1 or true only, and its callback is verified like a real one', async () => {
    const bad = await start(`/auth/sso/${org.slug}/start?test=yes`);
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.success).toBe(false);
    expect(body.errors.join(' ')).toMatch(/test: /);
    const started = await start(`/auth/sso/${org.slug}/start?test=1&returnTo=${encodeURIComponent('/studio/settings/sso')}`);
    expect(started.status).toBe(302);
    const cookie = started.headers.get('set-cookie')!.split(';')[0];
    const wrongState = await fetch(`${t.baseUrl}/auth/sso/callback?code=abc&state=another&iss=${encodeURIComponent(idp.issuer)}`, {
      redirect: 'manual',
      headers: { accept: 'application/json', cookie },
    });
    expect(wrongState.status).toBe(401);
    expect((await wrongState.json()).errors[0]).toMatch(/could not be verified.*state/i);
    expect(wrongState.headers.get('set-cookie')).toMatch(/^folio_sso=;/);
  });

  it("refuses a suspended organization's sign-in with the suspension's reason", async () => {
    expect((await t.json(`/admin/v1/organizations/${org.orgId}/suspend`, { token: t.adminToken, body: { reason: 'unpaid invoice' } })).status).toBe(200);
    try {
      const res = await start(`/auth/sso/${org.slug}/start`);
      expect([res.status, (await res.json()).errors]).toEqual([403, ['This organization is suspended: unpaid invoice']]);
    } finally {
      expect((await t.json(`/admin/v1/organizations/${org.orgId}/resume`, { token: t.adminToken, method: 'POST' })).status).toBe(200);
    }
    expect((await start(`/auth/sso/${org.slug}/start`)).status).toBe(302);
  });

  it('refuses a callback not started in this browser, with a forged cookie, or with another state', async () => {
    const bare = await start('/auth/sso/callback?code=abc&state=def');
    expect(bare.status).toBe(401);
    expect((await bare.json()).errors[0]).toMatch(/not started in this browser/);
    const forged = await fetch(`${t.baseUrl}/auth/sso/callback?code=abc&state=def`, { redirect: 'manual', headers: { accept: 'application/json', cookie: 'folio_sso=e30.AAAA' } });
    expect(forged.status).toBe(401);

    const started = await start(`/auth/sso/${org.slug}/start`);
    const cookie = started.headers.get('set-cookie')!.split(';')[0];
    const wrongState = await fetch(`${t.baseUrl}/auth/sso/callback?code=abc&state=another&iss=${encodeURIComponent(idp.issuer)}`, {
      redirect: 'manual',
      headers: { accept: 'application/json', cookie },
    });
    expect(wrongState.status).toBe(401);
    const body = await wrongState.json();
    expect(body.errors[0]).toMatch(/could not be verified.*state/i);
    // the pending sign-in is used up either way
    expect(wrongState.headers.get('set-cookie')).toMatch(/^folio_sso=;/);
  });
});

describe('SSO only', () => {
  it("refuses passwords for the organization's members while it is on", async () => {
    const person = await member('editor');
    expect((await putSettings(org.manageToken, settings({ clientSecret: undefined, ssoOnly: true }))).status).toBe(200);
    const refused = await t.json('/auth/sign-in', { body: { email: person.email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([`This organization signs in through single sign-on only: open /auth/sso/${org.slug}/start in the browser.`]);
    const wrong = await t.json('/auth/sign-in', { body: { email: person.email, password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect((await putSettings(org.manageToken, settings({ clientSecret: undefined, ssoOnly: false }))).status).toBe(200);
    expect((await t.json('/auth/sign-in', { body: { email: person.email, password: PASSWORD } })).status).toBe(200);
  });
});
