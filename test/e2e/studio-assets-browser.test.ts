import { chromiumFor, launchChromium } from '../support/chromium.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { accessible, shoot as shootAt, signedInPage, STUDIO_ARTIFACTS, STUDIO_PASSWORD } from '../support/studio-page.js';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { setupOrg, uploadImage, type GqlOrg } from '../integration/graphql-support.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';

/**
 * The Studio's entries list and media library in a real browser (Debian's Chromium, driven by
 * playwright-core), by role and label: the list filtered by locale, label and author and sorted,
 * all of it kept in the URL (a reload and the back button show the same list); a bulk publish of
 * an entry changed meanwhile is refused, not published unseen; assets searched by words and tag,
 * shown as a list, a focal point set for one ratio by a click, where an asset is used, and its
 * file replaced keeping its id. axe-core finds no serious or critical violation; each screen is
 * kept at 1440 and 390 px wide in test-artifacts/studio/, nothing overflowing at 390. Skipped
 * without Chromium.
 */
const hasChromium = chromiumFor('studio-assets-browser.test.ts');

const PASSWORD = STUDIO_PASSWORD;
const fixture = (name: string) => path.join(projectRoot, 'test/fixtures/images', name);

describe.skipIf(!hasChromium)('the Studio list and media library in Chromium', () => {
  let app: TestApp;
  let o: GqlOrg;
  let browser: Browser;
  let editor = '';
  let fish = '';
  let label = '';
  const contexts: BrowserContext[] = [];

  const signedIn = (email: string) => signedInPage(browser, app.baseUrl, email, contexts);
  /** axe-core at 1440 px too, then the screenshots (and axe) at both widths. */
  const shoot = async (page: Page, name: string) => {
    await accessible(page, name);
    await shootAt(page, name);
  };

  /** The titles the entries table shows, in order. */
  const titles = (page: Page) => page.locator('table.entries tbody td:nth-child(2)').allTextContents();

  beforeAll(async () => {
    await mkdir(STUDIO_ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    app = await startTestApp();
    o = await setupOrg(app);
    await o.m('POST', '/locales', { code: 'en', name: 'English' });
    await o.m('POST', '/locales', { code: 'fr', name: 'Français' });
    await o.m('PUT', '/models/article', {
      name: 'Article',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', localized: true },
        { alias: 'byline', type: 'author' },
        { alias: 'cover', type: 'media' },
      ],
    });
    label = (await o.m('POST', '/labels', { name: 'Featured' })).id;
    const ada = (await o.m('POST', '/authors', { byline: 'Ada Lovelace' })).id;
    fish = await uploadImage(app, o.manage, 'goldfish.png');
    await o.m('PATCH', `/assets/${fish}`, { title: 'Goldfish', tags: ['fish'] });
    const mouse = await uploadImage(app, o.manage, 'the-mouse.jpg');
    await o.m('PATCH', `/assets/${mouse}`, { tags: ['animal'] });
    const put = (id: string, body: Record<string, unknown>) => o.m('PUT', `/entries/${id}`, { model: 'article', siteId: o.siteId, ...body });
    await put('banana', { fields: { title: 'Banana', cover: fish }, labels: [label] });
    await put('apple', { fields: { title: 'Apple', byline: ada }, locales: { fr: { title: 'Pomme' } } });
    await put('cherry', { fields: { title: 'Cherry' }, labels: [label] });
    const email = `editor-${randomBase62(6).toLowerCase()}@example.test`;
    const invited = await app.json('/management/v1/invitations', { token: o.manage, body: { email, role: 'editor' } });
    await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
    editor = email;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('filters the entries list by label, author and locale and sorts it, kept in the URL', async () => {
    const page = await signedIn(editor);
    await expect.poll(() => titles(page)).toEqual(['Banana', 'Apple', 'Cherry']);
    await page.getByLabel('Label').selectOption({ label: 'Featured' });
    await expect.poll(() => titles(page)).toEqual(['Banana', 'Cherry']);
    await page.getByLabel('Sort by').selectOption({ label: 'Title' });
    await page.getByLabel('Direction').selectOption({ label: 'Z to A' });
    await expect.poll(() => titles(page)).toEqual(['Cherry', 'Banana']);
    expect(new URL(page.url()).searchParams.get('label')).toBe(label);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('title');
    await shoot(page, '20-entries-filtered');
    // a reload shows the same list with the same choices
    await page.reload();
    await expect.poll(() => titles(page)).toEqual(['Cherry', 'Banana']);
    expect(await page.getByLabel('Direction').inputValue()).toBe('desc');
    await page.getByLabel('Label').selectOption({ label: 'Any label' });
    await page.getByLabel('Author').selectOption({ label: 'Ada Lovelace' });
    await expect.poll(() => titles(page)).toEqual(['Apple']);
    await page.getByLabel('Author').selectOption({ label: 'Any author' });
    await page.getByLabel('Locale').selectOption({ label: 'Français' });
    // only the entries with French values, their titles read in French
    await expect.poll(() => titles(page)).toEqual(['Pomme']);
    // back: the list before the locale was chosen
    await page.goBack();
    await expect.poll(() => titles(page)).toEqual(['Cherry', 'Banana', 'Apple']);
    expect(await page.getByLabel('Locale').inputValue()).toBe('');
  });

  it('a bulk publish of an entry changed since the list showed it is refused, not published unseen', async () => {
    const page = await signedIn(editor);
    await expect.poll(() => titles(page)).toContain('Cherry');
    await page.getByLabel('Select Cherry').check();
    await o.m('PATCH', '/entries/cherry', { fields: { title: 'Cherry' } });
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/0 published; 1 refused .*VERSION_CONFLICT/);
    expect((await o.m('GET', '/entries/cherry')).status).toBe('DRAFT');
  });

  it('searches the media library, lists it, sets a focal point for one ratio, shows where an asset is used and replaces its file', async () => {
    const page = await signedIn(editor);
    await page.getByRole('link', { name: 'Assets', exact: true }).click();
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    const names = () => page.locator('.asset-grid li button, .asset-table tbody button').allTextContents();
    await expect.poll(names).toHaveLength(2);
    await page.getByLabel('Search assets').fill('gold');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(names).toEqual(['Goldfish']);
    await page.getByLabel('Search assets').fill('');
    await page.getByLabel('Tag').fill('animal');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(names).toEqual(['the-mouse.jpg']);
    await page.getByLabel('Tag').fill('');
    await page.getByRole('button', { name: 'Find' }).click();
    // the list view, kept for the next visit
    await page.getByRole('button', { name: 'List' }).click();
    await page.locator('.asset-table').waitFor();
    await expect.poll(names).toHaveLength(2);
    expect(await page.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    await shoot(page, '21-assets-list');

    await page.getByRole('button', { name: 'Goldfish' }).click();
    // where it is used
    await expect.poll(() => page.getByRole('list', { name: 'Entries using this asset' }).getByRole('link').allTextContents()).toEqual(['Banana']);
    // a focal point for square crops only
    await page.getByLabel('Focal point for').selectOption('1:1');
    const image = page.locator('.focal-image img');
    await expect.poll(() => image.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const box = (await image.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.3);
    expect(await page.getByLabel('Focal point x (%)').inputValue()).toBe('20');
    expect(await page.getByRole('img', { name: 'Crop at 1:1, its own focal point' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Save asset' }).click();
    await expect.poll(() => page.locator('.asset-detail [role=status]').textContent()).toBe('Saved.');
    const saved = await o.m('GET', `/assets/${fish}`);
    expect(saved.focalPoints).toHaveLength(1);
    expect(saved.focalPoints[0].ratio).toBe('1:1');
    expect(saved.focalPoints[0].focalPoint.x).toBeCloseTo(0.2, 1);
    expect(saved.focalPoints[0].focalPoint.y).toBeCloseTo(0.3, 1);
    expect(saved.focalPoint).toEqual({ x: 0.5, y: 0.5 });
    await shoot(page, '22-asset-detail');

    // a new file for the same asset: its id, and so the entry using it, kept
    await page.getByLabel('Replace file').setInputFiles(fixture('the-mouse.jpg'));
    await expect.poll(() => page.locator('.asset-detail [role=status]').textContent(), { timeout: 30_000 }).toBe('Replaced by the-mouse.jpg.');
    const replaced = await o.m('GET', `/assets/${fish}`);
    expect(replaced.contentType).toBe('image/jpeg');
    expect(replaced.versionId).not.toBe(saved.versionId);
    expect((await o.m('GET', '/entries/banana')).fields.cover).toBe(fish);

    // from where it is used to the entry
    await page.getByRole('link', { name: 'Banana' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/studio/entries/banana');
  });
});
