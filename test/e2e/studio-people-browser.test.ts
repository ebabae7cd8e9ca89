import { mkdir } from 'node:fs/promises';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { setupOrg, type GqlOrg } from '../integration/graphql-support.js';
import { chromiumFor, launchChromium } from '../support/chromium.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startIdentityProvider, type TestIdentityProvider } from '../support/oidc-identity-provider.js';
import { accessible, shoot, STUDIO_ARTIFACTS, STUDIO_PASSWORD } from '../support/studio-page.js';
import { ensureStudioBuilt } from '../support/studio-build.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The Studio's people, integration and organization settings in Chromium, driven by label and
 * role as an owner would: invite an author (accepted in a second browser context, where Publish
 * is absent), roles as grids, single sign-on, tokens (one revoked, then refused), a webhook to a
 * loopback receiver whose delivery shows in its log after a publish, purge targets, delivery
 * settings and documents, the organization's usage and its deletion, and the audit log of it all.
 * Every form is sent one bad value and must show the API's own message; axe-core finds no serious
 * or critical violation on any screen; screenshots at 1440 and 390 px go to test-artifacts/studio/.
 */
const hasChromium = chromiumFor('studio-people-browser.test.ts');

const PASSWORD = STUDIO_PASSWORD;

describe.skipIf(!hasChromium)('the Studio settings for people, integration and the organization', () => {
  let app: TestApp;
  let o: GqlOrg;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let idp: TestIdentityProvider;
  let owner: Page;
  let authorEmail = '';
  const contexts: BrowserContext[] = [];

  const uniqueEmail = (who: string) => `${who}-${randomBase62(6).toLowerCase()}@example.test`;

  /** A member of the org with `role` (invited and accepted over the API): their email. */
  const member = async (role: string, manage = o.manage) => {
    const email = uniqueEmail(role);
    const invited = await app.json('/management/v1/invitations', { token: manage, body: { email, role } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
    return email;
  };

  const newPage = async (): Promise<Page> => {
    // axe-core is injected as an inline script, which the Studio's CSP (rightly) refuses
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err));
    return page;
  };

  /** A new browser session signed in through the form (into `organization` when given). */
  const signedIn = async (email: string): Promise<Page> => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/studio`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const content = page.getByRole('heading', { name: 'Content' });
    await content
      .or(page.getByRole('alert'))
      .first()
      .waitFor()
      .catch(async (err: unknown) => {
        throw new Error(`sign-in of ${email} showed neither the entries nor an alert: ${(await page.locator('body').textContent())?.slice(0, 300)}`, { cause: err });
      });
    if (!(await content.isVisible())) throw new Error(`sign-in of ${email} refused: ${await page.getByRole('alert').first().textContent()}`);
    return page;
  };

  const open = async (page: Page, section: string, heading: string) => {
    await page.goto(`${app.baseUrl}/studio/settings/${section}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };

  /** axe-core at 1440 px too, then the screenshots (and axe-core) at both widths. */
  const checked = async (page: Page, name: string) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await accessible(page, `${name} at 1440 px`);
    await shoot(page, name);
  };

  /** The API's own reasons for `body` sent to `pathname` with the manage token (a refusal is expected). */
  const apiSays = async (method: string, pathname: string, body: unknown): Promise<string[]> => {
    const res = await app.json(`/management/v1${pathname}`, { method, token: o.manage, body });
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
    expect(res.body.success).toBe(false);
    return res.body.errors as string[];
  };

  /** The page's alerts show every one of the API's reasons. */
  const alertShows = async (page: Page, reasons: string[]) => {
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) await expect.poll(() => page.getByRole('alert').allTextContents().then((t) => t.join('\n'))).toContain(reason);
  };

  beforeAll(async () => {
    await mkdir(STUDIO_ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    app = await startTestApp({ ownDatabase: true, env: {
        WEBHOOK_DISPATCH: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1',
        // the test identity provider listens on plain HTTP on loopback
        SSO_ALLOW_HTTP_ISSUERS: 'true',
        SSO_ALLOW_PRIVATE_ISSUERS: 'true',
      },
    });
    idp = await startIdentityProvider(`${app.baseUrl}/auth/sso/callback`);
    o = await setupOrg(app);
    await o.m('PUT', '/models/article', { name: 'Article', titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'secret', type: 'text' }] });
    await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
    await o.m('PUT', '/entries/first', { model: 'article', siteId: o.siteId, fields: { title: 'The first article' } });
    receiver = await startWebhookReceiver();
    receiver.answer = () => ({ status: 200, json: { received: true } });
    browser = await launchChromium();
    owner = await signedIn(await member('owner'));
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await receiver?.close();
    await idp?.close();
    await app?.close();
  });

  it('invites an author; accepted in a second browser context, the author has no Publish button', async () => {
    await open(owner, 'members', 'Members');
    // a bad email: the API's message under the form
    await owner.getByLabel('Email', { exact: true }).fill('not-an-email');
    await owner.getByLabel('Invite as').selectOption('author');
    await owner.getByRole('button', { name: 'Invite' }).click();
    await alertShows(owner, await apiSays('POST', '/invitations', { email: 'not-an-email', role: 'author' }));

    authorEmail = uniqueEmail('author');
    await owner.getByLabel('Email', { exact: true }).fill(authorEmail);
    await owner.getByRole('button', { name: 'Invite' }).click();
    const link = owner.getByLabel('Invitation link');
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(/\/studio\/accept#token=/);
    await checked(owner, 'people-1-members');

    // the invited person, in a browser of their own
    const author = await newPage();
    await author.goto(url);
    await author.getByLabel('Choose a password').fill(PASSWORD);
    await author.getByRole('button', { name: 'Set password' }).click();
    await author.getByRole('button', { name: 'Continue to sign-in' }).click();
    await author.getByLabel('Email').fill(authorEmail);
    await author.getByLabel('Password').fill(PASSWORD);
    await author.getByRole('button', { name: 'Sign in' }).click();
    await author.getByRole('heading', { name: 'Content' }).waitFor();
    await author.goto(`${app.baseUrl}/studio/entries/first`);
    await author.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await author.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    // the settings the author's role lacks are not offered (and the API refuses them anyway)
    await author.goto(`${app.baseUrl}/studio/settings/members`);
    await expect.poll(() => author.getByRole('alert').textContent()).toContain('does not include Members');
    expect(await author.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);

    // the owner's list shows the new member with the author role
    await owner.reload();
    await expect.poll(() => owner.getByLabel(`Role of ${authorEmail}`).inputValue()).toBe('author');
  }, 120_000);

  it('shows roles as grids and creates a custom role; a bad one gets the API message', async () => {
    await open(owner, 'roles', 'Roles');
    await owner.getByLabel('Show role').selectOption('author');
    const shown = owner.locator('section').first();
    await expect.poll(() => shown.getByLabel('read — Every other model').isChecked()).toBe(true);
    expect(await shown.getByLabel('publish — Every other model').isChecked()).toBe(false);
    expect(await shown.getByLabel('publish — Every other model').isDisabled()).toBe(true);

    const form = owner.locator('form');
    await form.getByRole('button', { name: 'Create role' }).click();
    await alertShows(owner, await apiSays('POST', '/roles', { name: '', rules: { models: {}, locales: null, assets: { upload: false, edit: false, delete: false }, settings: [] } }));

    await form.getByLabel('Role name').fill('Reviewer');
    await form.getByLabel('read — Article').check();
    await form.getByLabel('update — Article').check();
    await form.getByLabel('Access to article.secret').selectOption('hidden');
    await form.getByLabel('Every locale').uncheck();
    await form.getByLabel('English (en-US)').check();
    await form.getByRole('button', { name: 'Create role' }).click();
    await expect.poll(() => owner.getByRole('status').allTextContents().then((t) => t.join(' '))).toContain('Role Reviewer created.');
    const roles = await o.m('GET', '/roles');
    const reviewer = roles.find((r: { name: string }) => r.name === 'Reviewer');
    expect(reviewer.rules.models.article).toMatchObject({ read: true, update: true, publish: false, hiddenFields: ['secret'] });
    expect(reviewer.rules.locales).toEqual(['en-US']);
    await checked(owner, 'people-2-roles');
  }, 60_000);

  it('single sign-on: a bad issuer gets the API message; a test sign-in through a real provider names the role and writes nothing', async () => {
    await open(owner, 'sso', 'Single sign-on');
    await owner.getByText('Not set up: members sign in with their passwords.').waitFor();
    expect(await owner.getByRole('button', { name: 'Test sign-in' }).isDisabled()).toBe(true);
    await owner.getByLabel('Issuer').fill('not a url');
    await owner.getByLabel('Client ID').fill('folio');
    await owner.getByLabel('Client secret').fill('s3cret');
    await owner.getByLabel('Allowed email domains').fill('example.test');
    await owner.getByLabel('Default role').selectOption('viewer');
    await owner.getByRole('button', { name: 'Save single sign-on' }).click();
    await alertShows(
      owner,
      await apiSays('PUT', '/sso', { issuer: 'not a url', clientId: 'folio', clientSecret: 's3cret', allowedDomains: ['example.test'], defaultRole: 'viewer', roleClaim: null, roleMappings: [], ssoOnly: false }),
    );

    // real settings, then a test sign-in through the provider's own pages in a new window
    await owner.getByLabel('Issuer').fill(idp.issuer);
    await owner.getByLabel('Client ID').fill(idp.clientId);
    await owner.getByLabel('Client secret').fill(idp.clientSecret);
    await owner.getByLabel('Allowed email domains').fill('corp.test');
    await owner.getByLabel('Role claim').fill('groups');
    await owner.getByLabel('Role mappings (one per line: claim value = role)').fill('folio-editors = editor');
    await owner.getByRole('button', { name: 'Save single sign-on' }).click();
    await expect.poll(() => owner.getByRole('status').allTextContents().then((t) => t.join(' '))).toContain('Saved.');
    const popup = owner.context().waitForEvent('page');
    await owner.getByRole('button', { name: 'Test sign-in' }).click();
    const provider = await popup;
    await provider.waitForURL((u) => u.origin === idp.issuer);
    await provider.fill('input[name=login]', 'editor-kim@corp.test');
    await provider.fill('input[name=password]', 'any password');
    await provider.click('button[type=submit]');
    await provider.waitForSelector('button[type=submit]:has-text("Continue")');
    await provider.click('button[type=submit]');
    await expect.poll(() => provider.locator('#result').textContent().catch(() => null), { timeout: 20_000 }).toContain('editor-kim@corp.test would sign in as editor');
    await provider.close();
    // a test: no member was made, and the owner's own session goes on
    const members = await o.m('GET', '/members');
    expect(members.some((mb: { email: string }) => mb.email === 'editor-kim@corp.test')).toBe(false);
    await owner.reload();
    await owner.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    await expect.poll(() => owner.getByRole('button', { name: 'Test sign-in' }).isDisabled()).toBe(false);
    await checked(owner, 'people-3-sso');
  }, 60_000);

  it('tokens: made and shown once, a bad expiry refused with the API message; a revoked token is refused at its next call', async () => {
    await open(owner, 'tokens', 'API tokens');
    await owner.getByLabel('Token name').fill('site build');
    await owner.getByRole('checkbox', { name: 'delivery' }).check();
    await owner.getByLabel('Expires (empty: never)').fill('2001-01-01T00:00');
    await owner.getByRole('button', { name: 'Create token' }).click();
    await alertShows(owner, await apiSays('POST', '/tokens', { name: 'site build', scopes: ['delivery'], expiresAt: '2001-01-01T00:00:00Z' }));

    await owner.getByLabel('Expires (empty: never)').fill('');
    await owner.getByRole('button', { name: 'Create token' }).click();
    const shown = owner.getByLabel('Token site build');
    await shown.waitFor();
    const token = await shown.inputValue();
    const query = { query: '{ __typename }' };
    expect((await app.json('/graphql', { token, body: query })).status).toBe(200);

    // a publishable key, rotated: a new key shown once
    await owner.getByLabel('Token name').fill('web page key');
    await owner.getByLabel('Kind').selectOption('publishable');
    await owner.getByRole('button', { name: 'Create token' }).click();
    const key = owner.getByLabel('Token web page key');
    await key.waitFor();
    const first = await key.inputValue();
    expect(first).toMatch(/^folio_pk_/);
    await owner.getByRole('button', { name: 'Rotate web page key' }).click();
    await expect.poll(() => key.inputValue()).not.toBe(first);

    await owner.getByRole('button', { name: 'Revoke site build' }).click();
    await expect.poll(() => owner.getByRole('status').allTextContents().then((t) => t.join(' '))).toContain('site build is revoked');
    expect((await app.json('/graphql', { token, body: query })).status).toBe(401);
    await expect.poll(() => owner.getByRole('row', { name: /site build/ }).textContent()).toContain('revoked');
    await checked(owner, 'people-4-tokens');
  }, 60_000);

  it('a webhook to a loopback receiver: the delivery of a publish shows in its log, and is redelivered', async () => {
    await open(owner, 'webhooks', 'Webhooks');
    await owner.getByLabel('Webhook URL').fill(receiver.url);
    await owner.getByLabel('Events (comma-separated)').fill('entry.publishd');
    await owner.getByRole('button', { name: 'Create webhook' }).click();
    await alertShows(owner, await apiSays('POST', '/webhooks', { url: receiver.url, events: ['entry.publishd'] }));

    await owner.getByLabel('Events (comma-separated)').fill('entry.published');
    await owner.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => owner.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    const secret = await owner.getByLabel('Signing secret').inputValue();

    // publish in the Studio's editor
    await owner.goto(`${app.baseUrl}/studio/entries/first`);
    await owner.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toContain('Published');
    await receiver.waitFor((r) => r.some((x) => x.payload.type === 'entry.published'));

    await open(owner, 'webhooks', 'Webhooks');
    const card = owner.getByRole('article', { name: `Webhook ${receiver.url}` });
    await card.getByRole('button', { name: 'Delivery log' }).click();
    const row = card.getByRole('row', { name: /entry\.published/ });
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('succeeded');
    expect(await row.textContent()).toContain('HTTP 200');
    expect(await row.textContent()).toContain('{"received":true}');
    await card.getByRole('button', { name: /^Redeliver entry\.published/ }).click();
    await receiver.waitFor((r) => r.filter((x) => x.payload.type === 'entry.published').length >= 2);
    const ids = receiver.received.filter((x) => x.payload.type === 'entry.published').map((x) => x.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => owner.getByLabel('Signing secret').inputValue()).not.toBe(secret);
    await checked(owner, 'integration-1-webhooks');
  }, 90_000);

  it('purge targets: a bad template gets the API message; a generic target is listed with its log', async () => {
    await open(owner, 'purge-targets', 'Purge targets');
    await owner.getByLabel('Purge URL template').fill('not a url');
    await owner.getByRole('button', { name: 'Create purge target' }).click();
    await alertShows(owner, await apiSays('POST', '/purge-targets', { provider: 'http', url: 'not a url', method: 'PURGE' }));
    const template = `${receiver.url}/purge/{key}`;
    await owner.getByLabel('Purge URL template').fill(template);
    await owner.getByRole('button', { name: 'Create purge target' }).click();
    const card = owner.getByRole('article', { name: `Purge target ${template}` });
    await card.getByRole('button', { name: 'Purge log' }).click();
    await card.getByRole('region', { name: `Deliveries of ${template}` }).waitFor();
    await checked(owner, 'integration-2-purge-targets');
  }, 60_000);

  it('delivery: cache times, allowed origins and documents, each bad value with the API message', async () => {
    await open(owner, 'delivery', 'Delivery');
    await owner.getByLabel('Cache max-age (seconds)').fill('-5');
    await owner.getByRole('button', { name: 'Save delivery settings' }).click();
    await alertShows(owner, await apiSays('PATCH', '/delivery-settings', { cacheMaxAge: -5, cacheStaleWhileRevalidate: 0, trustedDocuments: false }));
    await owner.getByLabel('Cache max-age (seconds)').fill('120');
    await owner.getByRole('button', { name: 'Save delivery settings' }).click();
    await expect.poll(async () => (await o.m('GET', '/delivery-settings')).cacheMaxAge).toBe(120);

    await owner.getByLabel('Any origin').uncheck();
    await owner.getByLabel('Allowed origins (one per line)').fill('www.example.com/path');
    await owner.getByRole('button', { name: 'Save allowed origins' }).click();
    await alertShows(owner, await apiSays('PUT', '/allowed-origins', { allowedOrigins: ['www.example.com/path'] }));
    await owner.getByLabel('Allowed origins (one per line)').fill('https://www.example.com');
    await owner.getByRole('button', { name: 'Save allowed origins' }).click();
    await expect.poll(async () => (await o.m('GET', '/allowed-origins')).allowedOrigins).toEqual(['https://www.example.com']);

    await owner.getByRole('button', { name: 'Register document' }).click();
    await alertShows(owner, await apiSays('POST', '/persisted-documents', { documents: [{ document: '' }] }));
    await owner.getByLabel('Document name').fill('Typename');
    await owner.getByLabel('GraphQL document').fill('{ __typename }');
    await owner.getByRole('button', { name: 'Register document' }).click();
    await owner.getByRole('button', { name: 'Remove document Typename' }).waitFor();
    await checked(owner, 'integration-3-delivery');
  }, 60_000);

  it('the organization: usage at a glance; an owner deletes one after typing its slug, a wrong slug gets the API message', async () => {
    await open(owner, 'organization', 'Organization');
    const org = await o.m('GET', '/organization');
    await expect.poll(() => owner.locator('dl.usage').last().textContent()).toContain(`Entries${org.usage.entries}`);
    await owner.getByRole('heading', { name: 'Danger zone' }).waitFor();
    await checked(owner, 'organization-1');

    // deleting a second organization of its own owner
    const doomed = await app.createOrg('Doomed');
    const doomedOwner = await member('owner', doomed.manageToken);
    const page = await signedIn(doomedOwner);
    await open(page, 'organization', 'Organization');
    await page.getByLabel(`Type ${doomed.slug} to confirm`).fill('wrong-slug');
    await page.getByRole('button', { name: 'Delete organization' }).click();
    const bearer = (await app.json('/auth/sign-in', { body: { email: doomedOwner, password: PASSWORD } })).body.result.token as string;
    const said = await app.json('/management/v1/organization', { method: 'DELETE', token: bearer, body: { confirm: 'wrong-slug' } });
    expect(said.status).toBe(422);
    await alertShows(page, said.body.errors);
    await page.getByLabel(`Type ${doomed.slug} to confirm`).fill(doomed.slug);
    await page.getByRole('button', { name: 'Delete organization' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await app.json('/management/v1/organization', { token: doomed.manageToken });
    expect([401, 403]).toContain(after.status);

    // an author sees the usage, not the danger zone
    const author = await signedIn(authorEmail);
    await open(author, 'organization', 'Organization');
    await author.getByRole('heading', { name: 'Usage' }).waitFor();
    expect(await author.getByRole('heading', { name: 'Danger zone' }).count()).toBe(0);
  }, 90_000);

  it('the audit log reads all of that, filtered; a bad filter gets the API message; export follows the filters', async () => {
    await open(owner, 'audit-log', 'Audit log');
    await owner.getByLabel('Action').fill('token');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    const bad = await app.json('/management/v1/audit-log?action=token', { token: o.manage });
    expect(bad.status).toBe(400);
    await alertShows(owner, bad.body.errors);

    const table = owner.getByRole('region', { name: 'Audit log' });
    for (const [filter, action] of [
      ['token.*', 'token.revoked'],
      ['member.*', 'member.invited'],
      ['member.*', 'member.joined'],
      ['role.*', 'role.created'],
      ['webhook.*', 'webhook.created'],
    ]) {
      await owner.getByLabel('Action').fill(filter);
      await owner.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(() => table.textContent(), { message: action }).toContain(action);
    }
    await owner.getByLabel('Action').fill('token.*');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => table.textContent()).toContain('token.revoked');
    const href = await owner.getByRole('link', { name: 'Export these rows (NDJSON)' }).getAttribute('href');
    expect(href).toContain('action=token.*');
    // the export, fetched as the browser would with the session cookie
    const lines = await owner.evaluate(async (url) => (await (await fetch(url!)).text()).trim().split('\n'), href);
    const actions = lines.map((l) => (JSON.parse(l) as { action: string }).action);
    expect(actions).toContain('token.revoked');
    expect(actions.every((a) => a.startsWith('token.'))).toBe(true);
    await checked(owner, 'people-5-audit-log');
  }, 60_000);
});
