import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupOrg, type GqlOrg } from '../integration/graphql-support.js';
import { chromiumFor, launchChromium } from '../support/chromium.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';
import { accessible, shoot, signedInPage, STUDIO_ARTIFACTS, studioMember } from '../support/studio-page.js';

/**
 * The Studio's modelling and settings screens in a real browser, driven by role and label: an
 * admin creates a model with a localized text field, a reference and a validation, then an entry
 * of it in the content screens; a change that drops values asks first and a type change under
 * entries shows the API's refusal; every form is sent one bad value and shows the API's own
 * message; Ctrl+K jumps by name; an author sees no modelling controls. axe-core finds no serious
 * or critical violation on each screen; each is kept at 1440 and 390 px in test-artifacts/studio/.
 */
const hasChromium = chromiumFor('studio-settings-browser.test.ts');


describe.skipIf(!hasChromium)('the Studio settings in Chromium', () => {
  let app: TestApp;
  let o: GqlOrg;
  let browser: Browser;
  let admin = '';
  let author = '';
  let page: Page;

  const contexts: BrowserContext[] = [];
  const signedIn = (email: string) => signedInPage(browser, app.baseUrl, email, contexts);
  /** axe at 1440 as well, then the screenshots (and axe) at both widths. */
  const screen = async (p: Page, name: string) => {
    await accessible(p, `${name} at 1440 px`);
    await shoot(p, name);
  };

  /** Opens a screen by its navigation link (Settings, then the section's link). */
  const openSetting = async (label: string) => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByRole('link', { name: label, exact: true }).click();
    await page.getByRole('heading', { name: label, exact: true }).waitFor();
  };

  const alertText = (p: Page) => p.getByRole('alert').first().textContent();

  beforeAll(async () => {
    await mkdir(STUDIO_ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    app = await startTestApp();
    o = await setupOrg(app);
    await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
    await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch' });
    await o.m('PUT', '/models/page', { name: 'Page', titleField: 'heading', fields: [{ alias: 'heading', type: 'text' }] });
    await o.m('PUT', '/entries/about', { model: 'page', siteId: o.siteId, fields: { heading: 'Company history' } });
    admin = await studioMember(app, o.manage, 'admin');
    author = await studioMember(app, o.manage, 'author');
    browser = await launchChromium();
    page = await signedIn(admin);
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('the navigation links Models and Settings; Settings lists its sections', async () => {
    for (const name of ['Content', 'Models', 'Settings']) await expect.poll(() => page.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    for (const name of ['Models', 'Components', 'Locales', 'Sites', 'Sections', 'Authors', 'Labels', 'Lists']) {
      expect(await page.getByRole('main').getByRole('link', { name, exact: true }).count(), name).toBe(1);
    }
    await screen(page, 's1-settings');
  });

  it('creates a model with a localized text field, a reference and a validation; a bad alias shows the API message', async () => {
    await page.getByRole('link', { name: 'Models', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Models' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Page', exact: true }).waitFor();
    await screen(page, 's2-models');
    await page.getByRole('link', { name: 'New model' }).click();
    await page.getByRole('heading', { name: 'New model' }).waitFor();
    await page.getByLabel('Alias', { exact: true }).fill('cmsReview');
    await page.getByLabel('Name', { exact: true }).fill('Review');
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Alias of field 1').fill('headline');
    await page.getByLabel('Localized (field 1)').check();
    await page.getByLabel('Alias of field 2').fill('subject');
    await page.getByLabel('Type of field 2').selectOption('reference');
    await page.getByRole('group', { name: /Allowed models of field 2/ }).getByLabel('Page').check();
    await page.getByLabel('Alias of field 3').fill('score');
    await page.getByLabel('Type of field 3').selectOption('number');
    await page.getByLabel('Rule for field 3').selectOption('range');
    await page.getByRole('button', { name: 'Add rule to field 3' }).click();
    await page.getByLabel('Minimum of field 3').fill('1');
    await page.getByLabel('Maximum of field 3').fill('5');
    await page.getByLabel('Title field').selectOption('headline');
    // the API's own words for an alias it refuses
    await page.getByRole('button', { name: 'Create model' }).click();
    await expect.poll(() => alertText(page)).toContain('may not begin with "cms"');
    await screen(page, 's3-model-new-error');

    await page.getByLabel('Alias', { exact: true }).fill('review');
    await page.getByRole('button', { name: 'Create model' }).click();
    await page.getByRole('heading', { name: 'Model Review' }).waitFor();
    const saved = await o.m('GET', '/models/review');
    expect(saved).toMatchObject({
      name: 'Review',
      titleField: 'headline',
      fields: [
        { alias: 'headline', type: 'text', localized: true },
        { alias: 'subject', type: 'reference', allowedModels: ['page'] },
        { alias: 'score', type: 'number', validations: [{ range: { min: 1, max: 5 } }] },
      ],
    });
    // the preview is the type delivery serves
    await expect.poll(() => page.getByLabel('GraphQL type of the model').textContent()).toMatch(/type Review implements CmsEntry[\s\S]*subject: Page/);
    await screen(page, 's4-model-editor');
  }, 120_000);

  it('creates an entry of the model in the content screens; the validation shows the API message on its field', async () => {
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('button', { name: 'New entry' }).click();
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.getByRole('heading', { name: 'New Review' }).waitFor();
    await page.getByLabel('headline', { exact: true }).fill('A fine review');
    await page.getByLabel('headline (Deutsch)').fill('Eine gute Kritik');
    await page.getByLabel('Find an entry for subject').fill('history');
    await page.getByRole('button', { name: /Company history/ }).click();
    await page.getByLabel('score').fill('9');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const score = page.getByLabel('score');
    await expect.poll(() => score.getAttribute('aria-invalid')).toBe('true');
    const said = await page.locator(`#${await score.getAttribute('aria-describedby')}`).textContent();
    expect(said).toMatch(/at most 5|5/);
    await score.fill('4');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/studio\/entries\/[^/]+$/);
    const id = decodeURIComponent(page.url().split('/').pop()!);
    const entry = await o.m('GET', `/entries/${id}`);
    expect(entry.fields).toMatchObject({ headline: 'A fine review', subject: 'about', score: 4 });
    expect(entry.locales?.['de-DE']).toMatchObject({ headline: 'Eine gute Kritik' });
  }, 120_000);

  it('warns before a change that drops values, and shows the API refusing a type change under entries', async () => {
    await page.getByRole('link', { name: 'Models', exact: true }).first().click();
    await page.getByRole('main').getByRole('link', { name: 'Review', exact: true }).click();
    await page.getByRole('heading', { name: 'Model Review' }).waitFor();
    // a rename is a new field: the values under the old alias go, so it asks first
    await page.getByLabel('Alias of field 3').fill('rating');
    await page.getByRole('button', { name: 'Save model' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'This change deletes data' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('“score”');
    await screen(page, 's5-model-drop-warning');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    expect(await dialog.count()).toBe(0);
    expect((await o.m('GET', '/models/review')).fields.map((f: { alias: string }) => f.alias)).toEqual(['headline', 'subject', 'score']);
    await page.getByLabel('Alias of field 3').fill('score');
    // reorder: the reference first
    await page.getByRole('button', { name: 'Move field 2 up' }).click();
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
    expect((await o.m('GET', '/models/review')).fields.map((f: { alias: string }) => f.alias)).toEqual(['subject', 'headline', 'score']);
    // a type change while entries exist: the API's reason, nothing stored
    await page.getByLabel('Type of field 2').selectOption('number');
    await page.getByRole('button', { name: 'Save model' }).click();
    await expect.poll(() => alertText(page)).toContain('cannot change while entries of the model exist');
    expect((await o.m('GET', '/models/review')).fields[1].type).toBe('text');
  }, 120_000);

  it('components: a bad alias shows the API message; a component is created', async () => {
    await openSetting('Components');
    await page.getByRole('link', { name: 'New component' }).click();
    await page.getByLabel('Alias', { exact: true }).fill('query');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Alias of field 1').fill('said');
    await page.getByRole('button', { name: 'Create component' }).click();
    await expect.poll(() => alertText(page)).toContain('reserved');
    await page.getByLabel('Alias', { exact: true }).fill('quote');
    await page.getByRole('button', { name: 'Create component' }).click();
    await page.getByRole('heading', { name: 'Component quote' }).waitFor();
    expect((await o.m('GET', '/components/quote')).fields).toMatchObject([{ alias: 'said', type: 'text' }]);
    await screen(page, 's6-component');
  }, 60_000);

  it('locales: a bad code and a fallback loop show the API message; rename and fallback are saved, the default refused with entries in other locales', async () => {
    await openSetting('Locales');
    await page.getByLabel('Locale code').fill('not a code');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await expect.poll(() => alertText(page)).toContain('BCP 47');
    await page.getByLabel('Locale code').fill('fr-FR');
    await page.getByLabel('Locale name').fill('French');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Locale added.');
    await page.getByLabel('Name of fr-FR').fill('Français');
    await page.getByLabel('Fallback of fr-FR').selectOption('de-DE');
    await page.getByRole('button', { name: 'Save fr-FR' }).click();
    await expect.poll(async () => (await o.m('GET', '/locales/fr-FR')) as { name: string; fallback: string }).toMatchObject({ name: 'Français', fallback: 'de-DE' });
    await page.getByLabel('Fallback of de-DE').selectOption('fr-FR');
    await page.getByRole('button', { name: 'Save de-DE' }).click();
    await expect.poll(() => alertText(page)).toContain('leads back to "de-DE"');
    await screen(page, 's7-locales');
    // entries hold German values now: the API keeps the default, and says why
    await page.getByRole('button', { name: 'Make de-DE the default' }).click();
    await expect.poll(() => alertText(page)).toContain('cannot become the default now');
    expect(((await o.m('GET', '/locales/en-US')) as { default: boolean }).default).toBe(true);
  }, 60_000);

  it('sites, authors, labels, sections (a tree) and lists (windows): one bad value each shows the API message', async () => {
    await openSetting('Sites');
    await page.getByRole('button', { name: 'Add site' }).click();
    await expect.poll(() => alertText(page)).toMatch(/name/);
    await page.getByLabel('Site name').fill('Second site');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByText('Second site').waitFor();
    await screen(page, 's8-sites');

    await openSetting('Authors');
    await page.getByLabel('New author byline').fill('Ada');
    await page.getByLabel('New author email').fill('not-an-email');
    await page.getByRole('button', { name: 'Add author' }).click();
    await expect.poll(() => alertText(page)).toMatch(/email/i);
    await page.getByLabel('New author email').fill('ada@example.test');
    await page.getByRole('button', { name: 'Add author' }).click();
    await page.getByRole('group', { name: 'Ada' }).waitFor();
    await screen(page, 's9-authors');

    await openSetting('Labels');
    await page.getByLabel('New label color').fill('x'.repeat(60));
    await page.getByLabel('New label name').fill('Featured');
    await page.getByRole('button', { name: 'Add label' }).click();
    await expect.poll(() => alertText(page)).toMatch(/color/);
    await page.getByLabel('New label color').fill('gold');
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByRole('group', { name: 'Featured' }).waitFor();
    await screen(page, 's10-labels');

    await openSetting('Sections');
    for (const title of ['News', 'Local']) {
      await page.getByLabel('New section title').fill(title);
      await page.getByRole('button', { name: 'Add section' }).click();
      await page.getByRole('group', { name: title }).waitFor();
    }
    // siblings read as delivery lists them (by title until placed): News moves up before Local
    expect(await page.getByRole('button', { name: 'Move News down' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Move News up' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('News moved.');
    const placed = Object.fromEntries(((await o.m('GET', '/sections')) as { title: string; position: number | null }[]).map((x) => [x.title, x.position]));
    expect(placed).toEqual({ News: 0, Local: 1 });
    expect(await page.getByRole('button', { name: 'Move News up' }).isDisabled()).toBe(true);
    // move Local under News, then try News under Local: the API refuses the cycle
    await page.getByLabel('Parent of Local').selectOption({ label: 'News' });
    await page.getByRole('button', { name: 'Save Local' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Section Local saved.');
    const sections = await o.m('GET', '/sections');
    const news = sections.find((s: { title: string }) => s.title === 'News');
    expect(sections.find((s: { title: string }) => s.title === 'Local').parentId).toBe(news.id);
    await page.getByLabel('Parent of News').selectOption({ label: 'Local' });
    await page.getByRole('button', { name: 'Save News' }).click();
    await expect.poll(() => alertText(page)).toContain('would create a cycle');
    await screen(page, 's11-sections');

    await openSetting('Lists');
    await page.getByLabel('New list name').fill('Front page');
    await page.getByRole('button', { name: 'Add list' }).click();
    await page.getByRole('group', { name: 'Front page', exact: true }).waitFor();
    // entries are found by searching, and named by their titles
    await page.getByLabel('Find an entry for entry to add to Front page').fill('history');
    await page.getByRole('button', { name: /Company history/ }).click();
    await page.getByLabel('Shown from (Company history)').fill('2026-12-02T10:00');
    await page.getByLabel('Shown until (Company history)').fill('2026-12-01T10:00');
    await page.getByRole('button', { name: 'Save entries of Front page' }).click();
    await expect.poll(() => alertText(page)).toContain('must be after startAt');
    await page.getByLabel('Shown until (Company history)').fill('2026-12-03T10:00');
    await page.getByRole('button', { name: 'Save entries of Front page' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Entries of Front page saved.');
    const list = (await o.m('GET', '/lists')).find((l: { name: string }) => l.name === 'Front page');
    expect(list.entries).toEqual([{ entryId: 'about', startAt: new Date(2026, 11, 2, 10).toISOString(), endAt: new Date(2026, 11, 3, 10).toISOString() }]);
    await screen(page, 's12-lists');
  }, 120_000);

  it('Ctrl+K jumps to a model, an entry or a setting by name', async () => {
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Go to entry, model or setting' });
    await input.waitFor();
    await input.fill('Revi');
    await page.getByRole('option', { name: /Model Review/ }).waitFor();
    await accessible(page, 'palette');
    await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, 's13-palette-1440.png') });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Model Review' }).waitFor();
    await page.getByRole('button', { name: /Go to/ }).click();
    await input.fill('fine review');
    await page.getByRole('option', { name: /Entry A fine review/ }).click();
    await page.getByRole('heading', { name: /A fine review/ }).waitFor();
    await page.keyboard.press('Control+k');
    await input.fill('Locales');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Locales', exact: true }).waitFor();
  }, 60_000);

  it('an author sees the models read-only: no Add field, no New model; the API refuses the write anyway', async () => {
    const p = await signedIn(author);
    await p.getByRole('link', { name: 'Models', exact: true }).click();
    await p.getByRole('main').getByRole('link', { name: 'Review', exact: true }).click();
    await p.getByRole('heading', { name: 'Model Review' }).waitFor();
    expect(await p.getByRole('button', { name: 'Add field' }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Save model' }).count()).toBe(0);
    expect(await p.getByLabel('Alias of field 1').isDisabled()).toBe(true);
    await p.getByRole('link', { name: 'Models', exact: true }).first().click();
    expect(await p.getByRole('link', { name: 'New model' }).count()).toBe(0);
    const refused = await p.evaluate(async () => {
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('folio_csrf='))?.split('=')[1] ?? '';
      const res = await fetch('/management/v1/models/review', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) }, body: JSON.stringify({ fields: [] }) });
      return res.status;
    });
    expect(refused).toBe(403);
  }, 60_000);
});
