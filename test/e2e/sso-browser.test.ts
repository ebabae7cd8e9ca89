import { chromiumFor, launchChromium } from '../support/chromium.js';
import { type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityProvider, type TestIdentityProvider } from '../support/oidc-identity-provider.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Single sign-on in a real browser (Debian's Chromium through playwright-core) against a real
 * OpenID Connect provider (`oidc-provider`, in this process): the start redirects with the
 * authorization code flow and PKCE, the person signs in on the provider's own login and consent
 * pages, and lands signed in on `returnTo` with the same session cookies a password sign-in
 * sets. First sign-in makes the member just in time (default role, or the role the groups claim
 * maps to); an email outside the allowed domains is refused with a page saying why.
 */
const hasChromium = chromiumFor('sso-browser.test.ts');

describe.skipIf(!hasChromium)('single sign-on through a real identity provider and Chromium', () => {
  let t: TestApp;
  let org: TestOrg;
  let idp: TestIdentityProvider;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ env: { SSO_ALLOW_HTTP_ISSUERS: 'true', SSO_ALLOW_PRIVATE_ISSUERS: 'true' } });
    org = await t.createOrg('SSO');
    idp = await startIdentityProvider(`${t.baseUrl}/auth/sso/callback`);
    const put = await t.json('/management/v1/sso', {
      method: 'PUT',
      token: org.manageToken,
      body: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ['corp.test'],
        defaultRole: 'viewer',
        roleClaim: 'groups',
        roleMappings: [{ value: 'folio-editors', role: 'editor' }],
      },
    });
    expect(put.status).toBe(200);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await t?.close();
  });

  /**
   * Opens the start route in a fresh browser, signs in on the provider's login page as `login`,
   * consents, and returns the page and the answer of the callback.
   */
  async function signInThroughProvider(login: string): Promise<{ context: BrowserContext; page: Page; callback: Response }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const callback = page.waitForResponse((r) => r.url().startsWith(`${t.baseUrl}/auth/sso/callback`), { timeout: 30_000 });
    await page.goto(`${t.baseUrl}/auth/sso/${org.slug}/start?returnTo=${encodeURIComponent('/auth/me')}`);
    const authorize = new URL(page.url());
    expect(authorize.origin).toBe(idp.issuer);
    await page.fill('input[name=login]', login);
    await page.fill('input[name=password]', 'any password');
    await page.click('button[type=submit]');
    await page.waitForSelector('button[type=submit]:has-text("Continue")');
    await page.click('button[type=submit]');
    return { context, page, callback: await callback };
  }

  const bodyJson = async (page: Page) => JSON.parse((await page.textContent('body')) ?? 'null');

  it('signs in with the code flow and PKCE, makes the member just in time with the default role, and opens a session', async () => {
    const { context, page, callback } = await signInThroughProvider('ada@corp.test');
    expect(callback.status()).toBe(302);
    await page.waitForURL(`${t.baseUrl}/auth/me`);
    const me = await bodyJson(page);
    expect(me.result).toMatchObject({ email: 'ada@corp.test', role: 'viewer', organization: { id: org.orgId, slug: org.slug } });

    // the same cookies as a password sign-in; the pending sign-in's cookie is gone
    const cookies = await context.cookies(t.baseUrl);
    const session = cookies.find((c) => c.name === 'folio_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookies.find((c) => c.name === 'folio_csrf')).toMatchObject({ httpOnly: false });
    expect(cookies.some((c) => c.name === 'folio_sso')).toBe(false);

    const members = await t.json('/management/v1/members', { token: org.manageToken });
    expect(members.body.result.find((m: { email: string }) => m.email === 'ada@corp.test')).toMatchObject({ role: 'viewer', source: 'sso' });
    const sessions = await t.json('/auth/sessions', { token: session!.value });
    expect(sessions.body.result[0]).toMatchObject({ method: 'sso', current: true });

    // a write with the cookie alone is refused; with the CSRF token it goes through
    const writes = await page.evaluate(async () => {
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('folio_csrf='))!.slice('folio_csrf='.length);
      const bare = await fetch('/auth/sign-out', { method: 'POST' });
      const withToken = await fetch('/auth/sign-out', { method: 'POST', headers: { 'X-CSRF-Token': decodeURIComponent(csrf) } });
      return [bare.status, withToken.status];
    });
    expect(writes).toEqual([403, 200]);
    expect((await t.json('/auth/me', { token: session!.value })).status).toBe(401);

    const audit = await t.json('/management/v1/audit-log?action=member.joined', { token: org.manageToken });
    expect(audit.body.result.find((r: { actor: { name: string } }) => r.actor.name === 'ada@corp.test')).toMatchObject({ changes: { role: 'viewer', source: 'sso' } });
    await context.close();
  });

  it('gives the role the groups claim maps to, and follows the mapping at later sign-ins', async () => {
    const first = await signInThroughProvider('editor-bo@corp.test');
    await first.page.waitForURL(`${t.baseUrl}/auth/me`);
    expect((await bodyJson(first.page)).result).toMatchObject({ email: 'editor-bo@corp.test', role: 'editor' });
    await first.context.close();

    const remap = await t.json('/management/v1/sso', {
      method: 'PUT',
      token: org.manageToken,
      body: { issuer: idp.issuer, clientId: idp.clientId, allowedDomains: ['corp.test'], defaultRole: 'viewer', roleClaim: 'groups', roleMappings: [{ value: 'folio-editors', role: 'author' }] },
    });
    expect(remap.status).toBe(200);
    const second = await signInThroughProvider('editor-bo@corp.test');
    await second.page.waitForURL(`${t.baseUrl}/auth/me`);
    expect((await bodyJson(second.page)).result).toMatchObject({ email: 'editor-bo@corp.test', role: 'author' });
    await second.context.close();
    const audit = await t.json('/management/v1/audit-log?action=member.role_changed', { token: org.manageToken });
    expect(audit.body.result[0]).toMatchObject({ actor: { name: 'editor-bo@corp.test' }, changes: { role: { before: 'editor', after: 'author' }, source: 'sso' } });
  });

  it('refuses an email outside the allowed domains with a page saying why, and makes no member', async () => {
    const { context, page, callback } = await signInThroughProvider('eve@outside.test');
    expect(callback.status()).toBe(403);
    expect(await page.textContent('#reason')).toBe('eve@outside.test may not sign in to this organization: only addresses of corp.test are allowed.');
    expect((await context.cookies(t.baseUrl)).some((c) => c.name === 'folio_session')).toBe(false);
    const members = await t.json('/management/v1/members', { token: org.manageToken });
    expect(members.body.result.some((m: { email: string }) => m.email === 'eve@outside.test')).toBe(false);
    await context.close();
  });
});
