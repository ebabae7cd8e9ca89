import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { setupOrg, uploadImage, type GqlOrg } from '../integration/graphql-support.js';
import { pushLogs, waitForSpool } from '../integration/ingest-support.js';
import { chromiumFor, launchChromium } from '../support/chromium.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';
import { accessible, shoot, signedInPage, STUDIO_ARTIFACTS, studioMember } from '../support/studio-page.js';

/**
 * The Studio's entry editor in a real browser, on the real API, driven by role and label: component
 * fields (added by kind, nested, moved, removed, their errors on the nested field the path names);
 * media uploaded from a media field and from the rich text's media embed; searching the media
 * (by the API, alt texts too), author and section pickers; embedded entries and media shown by
 * their titles; the history's comparison read from the API's version diff; labels; archive, scheduled unpublish and preview (absent where the
 * API refuses it); the entry's traffic for members who read analytics; and one entry with two
 * locales, a reference, an uploaded image and an embedded entry, published, read back through
 * delivery GraphQL and previewed. Each screen axe-clean and kept at 1440 and 390 px. Skipped
 * without Chromium.
 */
const hasChromium = chromiumFor('studio-editor-browser.test.ts');
const IMAGES = path.join(projectRoot, 'test/fixtures/images');

describe.skipIf(!hasChromium)('the Studio entry editor in Chromium', () => {
  let app: TestApp;
  let o: GqlOrg;
  let browser: Browser;
  let preview: Server;
  let previewBase = '';
  const people = { admin: '', editor: '', narrow: '' };
  const ids = { ada: '', grace: '', news: '', culture: '', featured: '', evergreen: '' };
  const contexts: BrowserContext[] = [];
  const signedIn = (email: string) => signedInPage(browser, app.baseUrl, email, contexts);
  const open = async (page: Page, id: string) => {
    await page.goto(`${app.baseUrl}/studio/entries/${encodeURIComponent(id)}`);
    await page.getByRole('button', { name: 'History', exact: true }).waitFor();
  };
  const status = (page: Page) => page.locator('p.notice[role=status]');

  const member = (role: string) => studioMember(app, o.manage, role);

  beforeAll(async () => {
    await mkdir(STUDIO_ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    // the "site" a preview link opens: it answers any path with a page naming it
    preview = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Preview</title><h1>Preview of ${req.url?.split('?')[0]}</h1>`));
    await new Promise<void>((r) => preview.listen(0, '127.0.0.1', r));
    previewBase = `http://127.0.0.1:${(preview.address() as AddressInfo).port}`;
    app = await startTestApp();
    o = await setupOrg(app);
    await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
    await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch' });
    await o.m('PUT', '/models/page', { name: 'Page', titleField: 'heading', fields: [{ alias: 'heading', type: 'text' }] });
    await o.m('PUT', '/components/cta', {
      name: 'Call to action',
      fields: [
        { alias: 'label', type: 'text', required: true },
        { alias: 'target', type: 'reference', allowedModels: ['page'], required: true },
      ],
    });
    await o.m('PUT', '/components/hero', {
      name: 'Hero',
      fields: [
        { alias: 'heading', type: 'text', required: true },
        { alias: 'cta', type: 'component', components: ['cta'], valueType: 'single' },
      ],
    });
    await o.m('PUT', '/components/quote', { name: 'Quote', fields: [{ alias: 'text', type: 'text', required: true }, { alias: 'by', type: 'author' }] });
    await o.m('PUT', '/models/landing', {
      name: 'Landing',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
        { alias: 'body', type: 'component', components: ['hero', 'quote'], valueType: 'list' },
      ],
    });
    await o.m('PUT', '/models/promo', {
      name: 'Promo',
      titleField: 'name',
      fields: [
        { alias: 'name', type: 'text' },
        { alias: 'banner', type: 'component', components: ['cta'], valueType: 'single', localized: true },
      ],
    });
    await o.m('PUT', '/models/article', {
      name: 'Article',
      titleField: 'title',
      previewUrl: `${previewBase}/preview/{id}?token={token}`,
      fields: [
        { alias: 'title', type: 'text', required: true, localized: true },
        { alias: 'related', type: 'reference', allowedModels: ['page'] },
        { alias: 'image', type: 'media' },
        { alias: 'writer', type: 'author' },
        { alias: 'section', type: 'section' },
        { alias: 'body', type: 'richcontent' },
      ],
    });
    await o.m('PUT', '/entries/about', { model: 'page', siteId: o.siteId, status: 'PUBLISHED', fields: { heading: 'About us' } });
    await o.m('PUT', '/entries/team', { model: 'page', siteId: o.siteId, status: 'PUBLISHED', fields: { heading: 'Our team' } });
    await o.m('PUT', '/entries/contact', { model: 'page', siteId: o.siteId, status: 'PUBLISHED', fields: { heading: 'Contact' } });
    ids.ada = (await o.m('POST', '/authors', { firstName: 'Ada', lastName: 'Lovelace' })).id;
    ids.grace = (await o.m('POST', '/authors', { firstName: 'Grace', lastName: 'Hopper' })).id;
    ids.news = (await o.m('POST', '/sections', { title: 'News' })).id;
    ids.culture = (await o.m('POST', '/sections', { title: 'Culture' })).id;
    ids.featured = (await o.m('POST', '/labels', { name: 'Featured' })).id;
    ids.evergreen = (await o.m('POST', '/labels', { name: 'Evergreen' })).id;
    people.admin = await member('admin');
    people.editor = await member('editor');
    const role = await app.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `no-image-${randomBase62(4)}`, rules: { models: { '*': { read: true, update: true, publish: true }, article: { read: true, update: true, publish: true, hiddenFields: ['image'] } } } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    people.narrow = await member(role.body.result.id);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
    await new Promise((r) => preview?.close(r));
  });

  it('component fields: items added by kind, nested, moved and removed; errors on the nested field their path names', async () => {
    const page = await signedIn(people.editor);
    await page.getByRole('button', { name: 'New entry' }).click();
    await page.getByRole('button', { name: 'Landing', exact: true }).click();
    await page.getByRole('heading', { name: 'New Landing' }).waitFor();
    await page.getByLabel('title').fill('Spring launch');
    // several kinds allowed: one button per kind
    await page.getByRole('button', { name: 'Add Hero to body' }).click();
    await page.getByRole('button', { name: 'Add Quote to body' }).click();
    await page.getByRole('button', { name: 'Add Hero to body' }).click();
    expect(await page.getByRole('group', { name: /^body \d: / }).count()).toBe(3);
    await page.getByLabel('body 1 › heading').fill('Welcome');
    // a component inside a component: the hero's call to action, its target left out
    await page.getByRole('button', { name: 'Add Call to action to body 1 › cta' }).click();
    await page.getByLabel('body 1 › cta › label').fill('Read more');
    await page.getByLabel('body 3 › heading').fill('To be removed');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    // the API's problems, each on the nested field it names
    const text = page.getByLabel('body 2 › text');
    await expect.poll(() => text.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await text.getAttribute('aria-describedby')}`).textContent()).toContain('required');
    const target = page.getByRole('group', { name: 'body 1 › cta › target' });
    expect(await page.locator(`#${await target.getAttribute('aria-describedby')}`).textContent()).toContain('required');
    expect(page.url()).toMatch(/\/studio\/new\?/);
    await shoot(page, 'editor-1-component-errors');

    await page.getByLabel('Find an entry for body 1 › cta › target').fill('contact');
    await page.getByRole('button', { name: /^Contact/ }).click();
    await text.fill('Simple is better.');
    // searching the authors: only the matching one is offered
    await page.getByLabel('Find an author for body 2 › by').fill('ada');
    await expect.poll(() => page.getByRole('list', { name: 'Choices for body 2 › by' }).getByRole('button').allInnerTexts()).toEqual(['Ada Lovelace']);
    await page.getByRole('button', { name: 'Ada Lovelace' }).click();
    await page.getByRole('button', { name: 'Remove body 3' }).click();
    await page.getByRole('button', { name: 'Move body 2 up' }).click();
    // the quote is first now, and kept what was typed in it
    expect(await page.getByLabel('body 1 › text').inputValue()).toBe('Simple is better.');
    expect(await page.getByLabel('body 2 › heading').inputValue()).toBe('Welcome');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    await expect.poll(() => status(page).textContent()).toContain('Saved');
    const id = decodeURIComponent(page.url().split('/').pop()!);
    const saved = await o.m('GET', `/entries/${id}`);
    expect(saved.fields.body).toEqual([
      { component: 'quote', text: 'Simple is better.', by: ids.ada },
      { component: 'hero', heading: 'Welcome', cta: { component: 'cta', label: 'Read more', target: 'contact' } },
    ]);

    // opened again, the editor shows the stored components; an edit inside one is saved
    await open(page, id);
    expect(await page.getByRole('group', { name: 'body 1: Quote' }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'body 2: Hero' }).isVisible()).toBe(true);
    await page.getByLabel('body 2 › cta › label').fill('Read on');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status(page).textContent()).toContain('Saved');
    expect((await o.m('GET', `/entries/${id}`)).fields.body[1].cta).toEqual({ component: 'cta', label: 'Read on', target: 'contact' });
    await accessible(page, 'component editor');
    await shoot(page, 'editor-2-components');
  }, 120_000);

  it('a localized component field: a value per locale side by side, each saved in its own place', async () => {
    await o.m('PUT', '/entries/promo-1', { model: 'promo', siteId: o.siteId, fields: { name: 'Spring promo', banner: { component: 'cta', label: 'Shop now', target: 'about' } } });
    const page = await signedIn(people.editor);
    await open(page, 'promo-1');
    await page.getByRole('group', { name: 'banner in every locale' }).waitFor();
    expect(await page.getByLabel('banner › label').inputValue()).toBe('Shop now');
    // the German value starts empty: its own component, added and filled beside the default one
    await page.getByRole('button', { name: 'Add Call to action to banner (Deutsch)' }).click();
    await page.getByLabel('banner (Deutsch) › label').fill('Jetzt kaufen');
    // its target left out: the problem (locales.de-DE.banner.target) is shown on the German target
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const target = page.getByRole('group', { name: 'banner (Deutsch) › target' });
    await expect.poll(async () => page.locator(`#${await target.getAttribute('aria-describedby')}`).textContent()).toContain('required');
    expect(await page.getByRole('group', { name: 'banner › target' }).getAttribute('aria-describedby')).toBeNull();
    await page.getByLabel('Find an entry for banner (Deutsch) › target').fill('contact');
    await page.getByRole('button', { name: /^Contact/ }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status(page).textContent()).toContain('Saved');
    const saved = await o.m('GET', '/entries/promo-1');
    expect(saved.fields.banner).toEqual({ component: 'cta', label: 'Shop now', target: 'about' });
    expect(saved.locales).toEqual({ 'de-DE': { banner: { component: 'cta', label: 'Jetzt kaufen', target: 'contact' } } });
    await accessible(page, 'localized component');
  });

  it('uploads media from a media field and from the rich text, searches media, authors and sections, sets labels', async () => {
    const page = await signedIn(people.editor);
    await page.getByRole('button', { name: 'New entry' }).click();
    await page.getByRole('button', { name: 'Article', exact: true }).click();
    await page.getByRole('heading', { name: 'New Article' }).waitFor();
    await page.getByLabel('title (required)', { exact: true }).fill('Pictures');
    await page.getByLabel('Upload a file for image').setInputFiles(path.join(IMAGES, 'goldfish.png'));
    const image = page.getByRole('group', { name: 'image' });
    await expect.poll(() => image.locator('.chosen').textContent(), { timeout: 30_000 }).toContain('goldfish.png');
    // the chosen image is shown (served from the Studio's own origin, as its CSP asks)
    await expect.poll(() => image.locator('img.thumb').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.getByLabel('Find an author for writer').fill('grace');
    await expect.poll(() => page.getByRole('list', { name: 'Choices for writer' }).getByRole('button').allInnerTexts()).toEqual(['Grace Hopper']);
    await page.getByRole('button', { name: 'Grace Hopper' }).click();
    await page.getByLabel('Find a section for section').fill('cult');
    await expect.poll(() => page.getByRole('list', { name: 'Choices for section' }).getByRole('button').allInnerTexts()).toEqual(['Culture']);
    await page.getByRole('button', { name: 'Culture' }).click();
    await page.getByLabel('Label Featured').check();
    // rich text: a paragraph, then media embedded by upload and by search
    await page.getByRole('textbox', { name: 'body' }).click();
    await page.keyboard.type('Two pictures.');
    await page.getByRole('button', { name: 'Embed media in body' }).click();
    await page.getByLabel('Upload media to embed in body').setInputFiles(path.join(IMAGES, 'the-mouse.jpg'));
    await expect.poll(() => page.locator('.rich [data-cms_media]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByRole('button', { name: 'Embed media in body' }).click();
    await page.getByLabel('Find media to embed in body').fill('goldfish');
    await expect.poll(() => page.getByRole('list', { name: 'Media to embed in body' }).getByRole('button').count()).toBe(1);
    await page.getByRole('list', { name: 'Media to embed in body' }).getByRole('button').click();
    await expect.poll(() => page.locator('.rich [data-cms_media]').count()).toBe(2);
    await shoot(page, 'editor-3-media');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    await expect.poll(() => status(page).textContent()).toContain('Saved');

    const id = decodeURIComponent(page.url().split('/').pop()!);
    const saved = await o.m('GET', `/entries/${id}`);
    const assets: Array<{ id: string; fileName: string }> = await o.m('GET', '/assets');
    const fish = assets.find((a) => a.fileName === 'goldfish.png')!.id;
    const mouse = assets.find((a) => a.fileName === 'the-mouse.jpg')!.id;
    expect(saved.fields).toMatchObject({ title: 'Pictures', image: fish, writer: ids.grace, section: ids.culture });
    expect(saved.labels).toEqual([ids.featured]);
    const embedded = (saved.fields.body.content as Array<{ type: string; attrs?: { id: string } }>).filter((n) => n.type === 'cms_media').map((n) => n.attrs!.id);
    expect(embedded.sort()).toEqual([fish, mouse].sort());

    // labels changed on their own are a change to save
    await page.getByLabel('Label Featured').uncheck();
    await page.getByLabel('Label Evergreen').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await o.m('GET', `/entries/${id}`)).labels).toEqual([ids.evergreen]);
  }, 120_000);

  it('media searched by the API (alt text too); embedded blocks show titles; history compares through the API diff', async () => {
    const pond = await uploadImage(app, o.manage, 'goldfish.png');
    await o.m('PATCH', `/assets/${pond}`, { title: 'Pond life', alt: 'An orange carp in still water' });
    const body = (...ids: string[]) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Read on:' }] }, ...ids.map((id) => ({ type: 'cms_reference', attrs: { id } })), { type: 'cms_media', attrs: { id: pond } }] });
    await o.m('PUT', '/entries/gone', { model: 'page', siteId: o.siteId, fields: { heading: 'Soon gone' } });
    await o.m('PUT', '/entries/orphan', { model: 'article', siteId: o.siteId, fields: { title: 'Orphan', body: body('gone') } });
    await o.m('DELETE', '/entries/gone');
    await o.m('PUT', '/entries/digest', { model: 'article', siteId: o.siteId, fields: { title: 'Digest', body: body('team') }, locales: { 'de-DE': { title: 'Übersicht' } } });
    await o.m('PATCH', '/entries/digest', { fields: { title: 'Digest, revised', section: ids.news }, locales: { 'de-DE': { title: 'Neue Übersicht' } } });

    const page = await signedIn(people.editor);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(decodeURIComponent(r.url())));
    // an embedded entry deleted since: said so beside its id
    await open(page, 'orphan');
    await expect.poll(() => page.locator('.rich [data-cms_reference="gone"]').innerText()).toBe('Embedded entry: Soon gone gone (deleted)');
    await open(page, 'digest');
    // the embedded entry by its title, its id beside it; the media by its title
    const entry = page.locator('.rich [data-cms_reference="team"]');
    await expect.poll(() => entry.innerText()).toMatch(/^Embedded entry: Our team\s+team$/);
    await expect.poll(() => page.locator('.rich [data-cms_media]').innerText()).toMatch(new RegExp(`^Embedded media: Pond life\\s+${pond}$`));

    // a word found only in the alt text: the API searched it (the browser never sees alt texts)
    await page.getByLabel('Find media for image').fill('carp');
    await expect.poll(() => page.getByRole('list', { name: 'Choices for image' }).getByRole('button').allInnerTexts()).toEqual(['Pond life (image)']);
    expect(asked.some((u) => u.includes('/management/v1/assets?') && u.includes('search=carp'))).toBe(true);
    await page.getByLabel('Find media for image').fill('carp nowhere');
    await expect.poll(() => page.getByRole('list', { name: 'Choices for image' }).innerText()).toBe('Nothing found');
    await accessible(page, 'embedded titles');

    // the history's comparison is the API's: a row per changed field and per other locale
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('button', { name: 'Compare version 1', exact: true }).click();
    const diff = page.getByRole('table', { name: /Version 1 compared with the current version: 3 differences/ });
    await diff.waitFor();
    expect(asked.some((u) => /\/entries\/digest\/versions\/[^/]+\/diff\/[^/]+$/.test(u))).toBe(true);
    expect(await diff.getByRole('row').allInnerTexts()).toEqual([
      'Field\tVersion 1\tCurrent',
      'title\tDigest\tDigest, revised',
      'section\tnot set\t' + ids.news,
      'title (Deutsch)\tÜbersicht\tNeue Übersicht',
    ]);
    await accessible(page, 'history diff');
    await shoot(page, 'editor-7-history-diff');
    // restore still makes version 1 the draft
    await page.getByRole('button', { name: 'Restore version 1', exact: true }).click();
    await expect.poll(() => status(page).textContent()).toContain('Restored');
    const restored = await o.m('GET', '/entries/digest');
    expect(restored.fields.title).toBe('Digest');
    expect(restored.locales['de-DE'].title).toBe('Übersicht');
  }, 120_000);

  it('archives, schedules and cancels an unpublish; Preview opens the preview link, and is absent where the API refuses one', async () => {
    await o.m('PUT', '/entries/live', { model: 'article', siteId: o.siteId, status: 'PUBLISHED', fields: { title: 'Live one' } });
    const page = await signedIn(people.editor);
    await open(page, 'live');
    await page.getByLabel('Unpublish at').fill('2099-03-04T10:00');
    await page.getByRole('button', { name: 'Schedule unpublish' }).click();
    await expect.poll(() => status(page).textContent()).toContain('Scheduled to unpublish');
    expect(new Date((await o.m('GET', '/entries/live')).unpublishAt).getTime()).toBe(new Date(2099, 2, 4, 10, 0).getTime());
    await accessible(page, 'scheduled unpublish');
    await shoot(page, 'editor-4-lifecycle');
    await page.getByRole('button', { name: 'Cancel scheduled unpublish' }).click();
    await expect.poll(() => status(page).textContent()).toContain('cancelled');
    expect((await o.m('GET', '/entries/live')).unpublishAt).toBeNull();

    // Preview: a new tab at the model's preview URL, with a token that reads the entry's draft
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Preview', exact: true }).click()]);
    await tab.waitForURL(/\/preview\/live\?token=/);
    await tab.getByRole('heading', { name: 'Preview of /preview/live' }).waitFor();
    const token = new URL(tab.url()).searchParams.get('token')!;
    expect((await o.d('{ article(id: "live") { title } }', undefined, token)).article.title).toBe('Live one');
    await tab.close();

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await expect.poll(() => status(page).textContent()).toContain('Archived');
    expect((await o.m('GET', '/entries/live')).status).toBe('ARCHIVED');
    expect(await page.getByRole('button', { name: 'Archive', exact: true }).count()).toBe(0);

    // no preview URL on the model: no button
    await open(page, 'about');
    expect(await page.getByRole('button', { name: 'Preview', exact: true }).count()).toBe(0);
    // a role that hides a field may not have a preview token (it reads every field): no button, and the API refuses
    const narrow = await signedIn(people.narrow);
    await open(narrow, 'live');
    expect(await narrow.getByRole('button', { name: 'Preview', exact: true }).count()).toBe(0);
    const refused = await narrow.evaluate(async () => {
      const csrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('folio_csrf='))!.split('=')[1]);
      const res = await fetch('/management/v1/entries/live/preview-link', { method: 'POST', headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: '{}' });
      return res.status;
    });
    expect(refused).toBe(403);
  }, 120_000);

  it("shows the entry's traffic to members who read analytics, and nothing to those who do not", async () => {
    await o.m('PUT', '/entries/visited', { model: 'article', siteId: o.siteId, status: 'PUBLISHED', fields: { title: 'Visited' } });
    const project = await o.m('POST', '/projects', { name: 'Site' });
    await o.m('POST', `/projects/${project.id}/distributions`, { id: `web-${randomBase62(4).toLowerCase()}`, name: 'web', hostnames: ['www.example.test'] });
    const dist = (await o.m('GET', `/projects/${project.id}/distributions`))[0].id as string;
    await o.m('PUT', `/sites/${o.siteId}/url-patterns`, { patterns: [{ pattern: '/id/{id}' }] });
    const ingest = await app.createToken(o.manage, ['ingest']);
    const at = Date.now() - 3_600_000;
    const hit = (i: number, ip: string): TrafficEvent => ({
      timestampMs: at + i * 1000, clientIp: ip, method: 'GET', host: 'www.example.test', path: '/id/visited', query: '', status: 200, bytes: 1000, serveTimeMs: 5, cache: 'HIT', referer: '', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    });
    const lines = [hit(0, '203.0.113.1'), hit(1, '203.0.113.1'), hit(2, '203.0.113.2')].map((e) => JSON.stringify(toCanonical(e))).join('\n');
    const pushed = await pushLogs(app, ingest, dist, `${lines}\n`);
    expect(pushed.status, JSON.stringify(pushed.body)).toBeLessThan(300);
    await waitForSpool(app, o.orgId);

    const page = await signedIn(people.admin);
    await open(page, 'visited');
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await expect.poll(() => traffic.textContent(), { timeout: 20_000 }).toMatch(/Last 30 days: 3 requests, 2 visitors/);
    await accessible(page, 'traffic');
    await shoot(page, 'editor-5-traffic');
    // analytics down (the API answers its reports 503, see analytics-unavailable.test.ts): the editor works, no traffic, no error
    const down = await signedIn(people.admin);
    await down.route('**/api/v1/projects/**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, errors: ['Analytics is unavailable.'], messages: [], result: null, resultInfo: null }) }),
    );
    let asked = false;
    down.on('request', (r) => (asked ||= r.url().includes('/analytics/entries')));
    await open(down, 'visited');
    await expect.poll(() => asked).toBe(true);
    await down.getByLabel('title (required)', { exact: true }).fill('Visited again');
    await down.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status(down).textContent()).toContain('Saved');
    expect(await down.getByRole('region', { name: 'Traffic' }).count()).toBe(0);
    expect(await down.getByRole('alert').count()).toBe(0);
    // an editor does not read analytics: no traffic, no error
    const editor = await signedIn(people.editor);
    await open(editor, 'visited');
    expect(await editor.getByRole('region', { name: 'Traffic' }).count()).toBe(0);
    expect(await editor.getByRole('alert').count()).toBe(0);
  }, 120_000);

  it('one entry with two locales, a reference, an uploaded image and an embedded entry: published, read through delivery GraphQL, previewed', async () => {
    const page = await signedIn(people.admin);
    await page.getByRole('button', { name: 'New entry' }).click();
    await page.getByRole('button', { name: 'Article', exact: true }).click();
    await page.getByRole('heading', { name: 'New Article' }).waitFor();
    await page.getByLabel('title (required)', { exact: true }).fill('Hello world');
    await page.getByLabel('title (Deutsch)').fill('Hallo Welt');
    await page.getByLabel('Find an entry for related').fill('contact');
    await page.getByRole('button', { name: /^Contact/ }).click();
    await page.getByLabel('Upload a file for image').setInputFiles(path.join(IMAGES, 'the-mouse.jpg'));
    await expect.poll(() => page.getByRole('group', { name: 'image' }).locator('.chosen').textContent(), { timeout: 30_000 }).toContain('the-mouse.jpg');
    await page.getByRole('textbox', { name: 'body' }).click();
    await page.keyboard.type('See also:');
    await page.getByRole('button', { name: 'Embed an entry in body' }).click();
    // the entry to embed is searched by its words, among every model's entries
    await page.getByLabel('Find an entry to embed in body').fill('team');
    await page.getByRole('list', { name: 'Entries to embed in body' }).getByRole('button', { name: /^Our team/ }).click();
    await expect.poll(() => page.locator('.rich [data-cms_reference]').getAttribute('data-cms_reference')).toBe('team');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    await expect.poll(() => status(page).textContent()).toContain('Saved');
    const id = decodeURIComponent(page.url().split('/').pop()!);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => status(page).textContent()).toContain('Published');
    await shoot(page, 'editor-6-combined');

    const image = (await o.m('GET', `/entries/${id}`)).fields.image as string;
    const q = (locale: string) => `{ article(id: "${id}", locale: "${locale}") { title related { heading } image { id type } body_v2 { entries { items { id } } } } }`;
    expect((await o.d(q('en-US'))).article).toEqual({ title: 'Hello world', related: { heading: 'Contact' }, image: { id: image, type: 'IMAGE' }, body_v2: { entries: { items: [{ id: 'team' }] } } });
    expect((await o.d(q('de-DE'))).article.title).toBe('Hallo Welt');

    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Preview', exact: true }).click()]);
    await tab.waitForURL(new RegExp(`/preview/${id}\\?token=`));
    await tab.getByRole('heading', { name: `Preview of /preview/${id}` }).waitFor();
    const token = new URL(tab.url()).searchParams.get('token')!;
    expect((await o.d(`{ article(id: "${id}", locale: "de-DE") { title } }`, undefined, token)).article.title).toBe('Hallo Welt');
  }, 120_000);
});
