import { chromiumFor, launchChromium } from '../support/chromium.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { setupOrg, type GqlOrg } from '../integration/graphql-support.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';
import { accessible, shoot, signedInPage, STUDIO_ARTIFACTS, STUDIO_PASSWORD, studioMember } from '../support/studio-page.js';

/**
 * The Studio in a real browser (Debian's Chromium, driven by playwright-core), driven by role and
 * label as a person would: sign in, create an entry with most field types, save, publish and read
 * it back through delivery GraphQL; the model's validation errors on their fields; two sessions
 * editing the same entry get a conflict, not a lost write; the version history restores; an
 * author has no Publish button and the API refuses the author's publish. axe-core finds no serious
 * or critical violation on any screen; each screen is kept at 1440 and 390 px wide in
 * test-artifacts/studio/, and nothing overflows horizontally at 390. Skipped without Chromium.
 */
const hasChromium = chromiumFor('studio-browser.test.ts');


describe.skipIf(!hasChromium)('the Studio in Chromium', () => {
  let app: TestApp;
  let o: GqlOrg;
  let browser: Browser;
  const people: Record<'editor' | 'second' | 'author', string> = { editor: '', second: '', author: '' };
  let entryId = '';

  const member = (role: string) => studioMember(app, o.manage, role);
  const contexts: BrowserContext[] = [];
  const signedIn = (email: string) => signedInPage(browser, app.baseUrl, email, contexts);

  beforeAll(async () => {
    await mkdir(STUDIO_ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    app = await startTestApp();
    o = await setupOrg(app);
    await o.m('PUT', '/models/article', {
      name: 'Article',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
        { alias: 'views', type: 'number' },
        { alias: 'featured', type: 'boolean' },
        { alias: 'topics', type: 'tag', valueType: 'list' },
        { alias: 'link', type: 'url' },
        { alias: 'meta', type: 'json' },
        { alias: 'publishedOn', type: 'datetime' },
        { alias: 'related', type: 'reference', allowedModels: ['article'] },
        { alias: 'body', type: 'richcontent' },
        { alias: 'summary', type: 'text', localized: true },
      ],
    });
    await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
    await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch' });
    await o.m('PUT', '/models/page', { name: 'Page', titleField: 'heading', fields: [{ alias: 'heading', type: 'text' }] });
    await o.m('PUT', '/entries/older', { model: 'article', siteId: o.siteId, status: 'PUBLISHED', fields: { title: 'An older article' } });
    await o.m('PUT', '/entries/about', { model: 'page', siteId: o.siteId, fields: { heading: 'About us' } });
    people.editor = await member('editor');
    people.second = await member('editor');
    people.author = await member('author');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('signs in with email and password; a wrong password is refused on the form', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/studio`);
    await accessible(page, 'sign-in');
    await shoot(page, '1-sign-in');
    await page.getByLabel('Email').fill(people.editor);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or password/i);
  });

  it("an invitation's link: the person chooses a password on the Studio's page, then signs in", async () => {
    const email = `joiner-${randomBase62(6).toLowerCase()}@example.test`;
    const invited = await app.json('/management/v1/invitations', { token: o.manage, body: { email, role: 'viewer' } });
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/studio/accept#token=${invited.body.result.token}`);
    await page.getByLabel('Choose a password').fill(STUDIO_PASSWORD);
    await accessible(page, 'accept invitation');
    await shoot(page, '0-accept-invitation');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(STUDIO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Content' }).waitFor();
    // a viewer creates nothing and edits nothing
    expect(await page.getByRole('button', { name: 'New entry' }).count()).toBe(0);
    await page.goto(`${app.baseUrl}/studio/entries/older`);
    await page.getByLabel('title').waitFor();
    expect(await page.getByLabel('title').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
  });

  it("a role's hidden field is not shown, its read-only field cannot be changed", async () => {
    const role = await app.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `no-views-${randomBase62(4)}`, rules: { models: { article: { read: true, create: true, update: true, hiddenFields: ['views'], readOnlyFields: ['link'] } } } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const page = await signedIn(await member(role.body.result.id));
    await page.goto(`${app.baseUrl}/studio/entries/older`);
    await page.getByLabel('title').waitFor();
    expect(await page.getByLabel('views').count()).toBe(0);
    expect(await page.getByLabel('link').isDisabled()).toBe(true);
    expect(await page.getByLabel('title').isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  });

  it('lists entries with filters, search and paging, publishes a selection; the navigation is reachable at every width', async () => {
    for (const [id, heading] of [['bulk-1', 'Bulk one'], ['bulk-2', 'Bulk two']]) await o.m('PUT', `/entries/${id}`, { model: 'page', siteId: o.siteId, fields: { heading } });
    const page = await signedIn(people.editor);
    for (const name of ['Content', 'Assets']) await expect.poll(() => page.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    // an editor's role does not read analytics: no link to the dashboard (the API would refuse it)
    expect(await page.getByRole('link', { name: 'Analytics', exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByRole('link', { name: 'An older article' }).isVisible()).toBe(true);
    await page.getByLabel('Model').selectOption('page');
    await expect.poll(() => page.getByRole('link', { name: 'About us' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'An older article' }).count()).toBe(0);
    await page.getByLabel('Model').selectOption('');
    await page.getByLabel('Search').fill('older');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'About us' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('link', { name: 'An older article' }).isVisible()).toBe(true);
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Find' }).click();
    // bulk: select two drafts, publish them in one go
    await page.getByLabel('Select Bulk one').check();
    await page.getByLabel('Select Bulk two').check();
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('2 published.');
    for (const id of ['bulk-1', 'bulk-2']) expect((await o.m('GET', `/entries/${id}`)).status).toBe('PUBLISHED');
    await accessible(page, 'entries');
    await shoot(page, '2-entries');

    // narrow: the links sit behind the menu button, one press away
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByRole('link', { name: 'Content', exact: true }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    for (const name of ['Content', 'Assets']) expect(await page.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    await page.getByRole('link', { name: 'Assets', exact: true }).click();
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    await page.setViewportSize({ width: 1440, height: 1000 });
    // many files at once, each with its progress; then they are in the library
    await page.getByLabel('Upload files').setInputFiles(['goldfish.png', 'the-mouse.jpg'].map((f) => path.join(projectRoot, 'test/fixtures/images', f)));
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Uploaded' }).count(), { timeout: 30_000 }).toBe(2);
    const listed = (await o.m('GET', '/assets')).map((a: any) => a.fileName).sort();
    expect(listed).toEqual(['goldfish.png', 'the-mouse.jpg']);
    await expect.poll(() => page.locator('.asset-grid img').count()).toBe(2);
    await expect.poll(() => page.locator('.asset-grid img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    // metadata, and the focal point set by a click on the image
    await page.getByRole('button', { name: 'goldfish.png' }).click();
    const image = page.locator('.focal-image img');
    await image.waitFor();
    await expect.poll(() => image.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const box = (await image.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
    expect(await page.getByLabel('Focal point x (%)').inputValue()).toBe('25');
    expect(await page.getByLabel('Focal point y (%)').inputValue()).toBe('75');
    await page.getByLabel('Alt text').fill('A goldfish');
    await page.getByLabel('Tags').fill('fish, demo');
    await page.getByRole('button', { name: 'Save asset' }).click();
    await expect.poll(() => page.locator('.asset-detail [role=status]').textContent()).toBe('Saved.');
    const fish = (await o.m('GET', '/assets')).find((a: any) => a.fileName === 'goldfish.png');
    expect(fish.alt).toBe('A goldfish');
    expect(fish.tags).toEqual(['fish', 'demo']);
    expect(fish.focalPoint.x).toBeCloseTo(0.25, 1);
    expect(fish.focalPoint.y).toBeCloseTo(0.75, 1);
    await accessible(page, 'assets');
    await shoot(page, '3-assets');
  });

  it('creates an entry with most field types, shows the model’s errors on their fields, saves and publishes it; delivery reads it', async () => {
    const page = await signedIn(people.editor);
    await page.getByRole('button', { name: 'New entry' }).click();
    // one button per model, named by the model's name
    await page.getByRole('button', { name: 'Page', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Article', exact: true }).click();
    await page.getByRole('heading', { name: 'New Article' }).waitFor();
    await accessible(page, 'new entry');

    // saving without the required title: the model's error is on the title field
    await page.getByLabel('views').fill('42');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const title = page.getByLabel('title');
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await title.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toContain('required');
    await shoot(page, '4-editor-errors');

    await title.fill('Hello from the Studio');
    await page.getByLabel('featured').check();
    await page.getByLabel('topics').fill('news, cities');
    await page.getByLabel('link').fill('https://example.com/hello');
    await page.getByLabel('publishedOn').fill('2026-11-28T10:30');
    // JSON is validated as it is typed: a broken value is shown and blocks the save
    const meta = page.getByLabel('meta');
    await meta.fill('{"score": ');
    await expect.poll(() => page.getByText(/Not valid JSON/).isVisible()).toBe(true);
    await meta.fill('{"score": 7}');
    await expect.poll(() => page.getByText(/Not valid JSON/).count()).toBe(0);
    // a reference: searched among the allowed model's entries only
    await page.getByLabel('Find an entry for related').fill('older');
    await page.getByRole('button', { name: /An older article/ }).click();
    await expect.poll(() => page.getByRole('button', { name: /About us/ }).count()).toBe(0);
    // rich content in TipTap, loaded with the editor
    const body = page.getByRole('textbox', { name: 'body' });
    await body.click();
    await page.keyboard.type('The first paragraph.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    entryId = decodeURIComponent(page.url().split('/').pop()!);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved');

    const saved = await o.m('GET', `/entries/${entryId}`);
    expect(saved.status).toBe('DRAFT');
    expect(saved.fields).toMatchObject({
      title: 'Hello from the Studio',
      views: 42,
      featured: true,
      topics: ['news', 'cities'],
      link: 'https://example.com/hello',
      meta: { score: 7 },
      related: 'older',
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The first paragraph.' }] }] },
    });
    expect(new Date(saved.fields.publishedOn).getTime()).toBe(new Date(2026, 10, 28, 10, 30).getTime());

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Published');
    await accessible(page, 'editor');
    await shoot(page, '5-editor');
    const read = await o.d(`{ article(id: "${entryId}") { title views featured related { title } } }`);
    expect(read.article).toEqual({ title: 'Hello from the Studio', views: 42, featured: true, related: { title: 'An older article' } });
  }, 120_000);

  it('two sessions editing the same entry: the second save is a conflict shown to the person, not a lost write', async () => {
    const ada = await signedIn(people.editor);
    const grace = await signedIn(people.second);
    for (const p of [ada, grace]) {
      await p.goto(`${app.baseUrl}/studio/entries/${encodeURIComponent(entryId)}`);
      await p.getByLabel('title').waitFor();
    }
    await ada.getByLabel('title').fill('Changed by Ada');
    await ada.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => ada.getByRole('status').textContent()).toContain('Saved');

    await grace.getByLabel('title').fill('Changed by Grace');
    await grace.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => grace.getByRole('alert').first().textContent()).toContain('Someone saved a newer version');
    expect((await o.m('GET', `/entries/${entryId}`)).fields.title).toBe('Changed by Ada');
    await accessible(grace, 'conflict');
    await shoot(grace, '6-conflict');

    // Grace takes Ada's version: the form shows it
    await grace.getByRole('button', { name: 'Load their version' }).click();
    await expect.poll(() => grace.getByLabel('title').inputValue()).toBe('Changed by Ada');
  });

  it('lists the versions and restores an older one as the draft', async () => {
    const page = await signedIn(people.editor);
    await page.goto(`${app.baseUrl}/studio/entries/${encodeURIComponent(entryId)}`);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: 'Versions' }).waitFor();
    const versions = await o.m('GET', `/entries/${entryId}/versions`);
    await expect.poll(() => page.locator('.history li').count()).toBe(versions.length);
    const first = versions[versions.length - 1];
    expect(first.title).toBe('Hello from the Studio');
    // the readable diff: the fields where version 1 differs from the current version
    await page.getByRole('button', { name: 'Compare version 1', exact: true }).click();
    const diff = page.getByRole('table', { name: /Version 1 compared with the current version/ });
    await diff.waitFor();
    expect(await diff.getByRole('row', { name: /title/ }).innerText()).toMatch(/title\s+Hello from the Studio\s+Changed by Ada/);
    expect(await diff.getByRole('row', { name: /views/ }).count()).toBe(0);
    await accessible(page, 'history');
    await shoot(page, '7-history');
    // versions are numbered from the first save
    await page.getByRole('button', { name: 'Restore version 1', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Restored');
    await expect.poll(() => page.getByLabel('title').inputValue()).toBe('Hello from the Studio');
    expect((await o.m('GET', `/entries/${entryId}`)).fields.title).toBe('Hello from the Studio');
  });

  it('shows a localized field in every locale side by side, with the fallback, and saves a translation', async () => {
    await o.m('PUT', '/entries/translated', { model: 'article', siteId: o.siteId, fields: { title: 'Translated', summary: 'Hello' } });
    const page = await signedIn(people.editor);
    await page.goto(`${app.baseUrl}/studio/entries/translated`);
    await page.getByRole('group', { name: 'summary in every locale' }).waitFor();
    expect(await page.getByLabel('summary', { exact: true }).inputValue()).toBe('Hello');
    const german = page.getByLabel('summary (Deutsch)');
    expect(await german.inputValue()).toBe('');
    await expect.poll(() => page.getByText('Falls back to: Hello').isVisible()).toBe(true);
    await german.fill('Hallo');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved');
    const saved = await o.m('GET', '/entries/translated');
    expect(saved.fields.summary).toBe('Hello');
    expect(saved.locales).toEqual({ 'de-DE': { summary: 'Hallo' } });
    await accessible(page, 'localized editor');
    await shoot(page, '9-localized');
  });

  it('a member of two organizations switches between them', async () => {
    const other = await app.createOrg('Second org');
    const invited = await app.json('/management/v1/invitations', { token: other.manageToken, body: { email: people.second, role: 'viewer' } });
    expect((await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: STUDIO_PASSWORD } })).status).toBe(200);
    const page = await signedIn(people.second);
    const switcher = page.getByLabel('Organization');
    expect(await switcher.inputValue()).toBe(o.orgId);
    // the role arrives after the heading: wait for what an editor sees rather than count too early
    await page.getByRole('button', { name: 'New entry' }).waitFor();
    await switcher.selectOption(other.orgId);
    // a session belongs to one organization: the switch signs in again
    await page.getByLabel('Email').fill(people.second);
    await page.getByLabel('Password').fill(STUDIO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByLabel('Organization').inputValue()).toBe(other.orgId);
    await page.getByRole('heading', { name: 'Content' }).waitFor();
    // a viewer there (once the role has arrived): nothing to create, none of the first organization's entries
    await page.getByText(`${people.second} · viewer`).waitFor();
    expect(await page.getByRole('button', { name: 'New entry' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'An older article' }).count()).toBe(0);
  });

  it('schedules a publication', async () => {
    await o.m('PUT', '/entries/later', { model: 'article', siteId: o.siteId, fields: { title: 'For tomorrow' } });
    const page = await signedIn(people.editor);
    await page.goto(`${app.baseUrl}/studio/entries/later`);
    await page.getByLabel('Publish at').fill('2099-01-02T09:00');
    await page.getByRole('button', { name: 'Schedule publish' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Scheduled to publish');
    const scheduled = await o.m('GET', '/entries/later');
    expect(scheduled.status).toBe('SCHEDULED');
    expect(new Date(scheduled.scheduledAt).getTime()).toBe(new Date(2099, 0, 2, 9, 0).getTime());
  });

  it('the path from sign-in to a published entry works with the keyboard alone (under the CSP)', async () => {
    // this session keeps the Studio's Content-Security-Policy: nothing the app does may break it
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    contexts.push(context);
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) refused.push(m.text());
    });
    const k = page.keyboard;
    /** Tab (forward) until `target` has the focus: it is reachable without a mouse. */
    const tabTo = async (target: ReturnType<Page['getByRole']>) => {
      await target.waitFor();
      const handle = await target.elementHandle();
      for (let i = 0; i < 80; i++) {
        if (await page.evaluate((t) => document.activeElement === t, handle)) return;
        await k.press('Tab');
      }
      throw new Error(`not reachable with Tab: ${target}`);
    };
    await page.goto(`${app.baseUrl}/studio`);
    await tabTo(page.getByLabel('Email'));
    await k.type(people.second);
    await k.press('Tab');
    await k.type(STUDIO_PASSWORD);
    await k.press('Enter');
    await tabTo(page.getByRole('button', { name: 'New entry' }));
    await k.press('Enter');
    await tabTo(page.getByRole('button', { name: 'Article', exact: true }));
    await k.press('Enter');
    await tabTo(page.getByLabel('title'));
    await k.type('Typed without a mouse');
    await tabTo(page.getByRole('button', { name: 'Save', exact: true }));
    await k.press('Enter');
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    const id = decodeURIComponent(page.url().split('/').pop()!);
    // the saved entry's editor is on screen (the new one replaced the blank form)
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved');
    await tabTo(page.getByRole('button', { name: 'Publish', exact: true }));
    await k.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Published');
    const read = await o.d(`{ article(id: "${id}") { title } }`);
    expect(read.article).toEqual({ title: 'Typed without a mouse' });
    // the rich content editor was loaded and drawn on this page too
    expect(await page.getByRole('textbox', { name: 'body' }).count()).toBe(1);
    expect(refused).toEqual([]);
  });

  it("an author's editor has Save but no Publish, and the author's direct publish call is refused", async () => {
    const page = await signedIn(people.author);
    await page.goto(`${app.baseUrl}/studio/entries/${encodeURIComponent(entryId)}`);
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Unpublish', exact: true }).count()).toBe(0);
    await accessible(page, 'author editor');
    await shoot(page, '8-author-editor');
    // the same session, calling the API as the Studio would (cookie and CSRF token)
    const status = await page.evaluate(async (id) => {
      const csrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('folio_csrf='))!.split('=')[1]);
      const res = await fetch(`/management/v1/entries/${encodeURIComponent(id)}/publish`, { method: 'POST', headers: { 'x-csrf-token': csrf } });
      return res.status;
    }, entryId);
    expect(status).toBe(403);
  });
});
