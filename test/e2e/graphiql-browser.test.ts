import { chromiumFor, launchChromium } from '../support/chromium.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * GraphiQL as a person meets it, in a real browser (Debian's Chromium, driven by playwright-core):
 * it opens without a token, without errors, and says where the token goes; once a token is in its headers, the
 * schema re-fetch loads the organization's own schema and the first query runs. `.ci/run`
 * installs /usr/bin/chromium; without it this file is skipped.
 */
const hasChromium = chromiumFor('graphiql-browser.test.ts');

const isIntrospection = (body: string | null) => body !== null && body.includes('__schema');

describe.skipIf(!hasChromium)('GraphiQL in Chromium', () => {
  let app: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    const site = (await app.json('/management/v1/sites', { token: org.manageToken, body: { name: 'Web' } })).body.result.id;
    await app.json('/management/v1/models/recipe', { method: 'PUT', token: org.manageToken, body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } });
    await app.json('/management/v1/entries', { token: org.manageToken, body: { model: 'recipe', siteId: site, status: 'PUBLISHED', fields: { title: 'Soup' } } });
    token = await app.createToken(org.manageToken, ['delivery']);
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** The text of the editor that currently shows `marker` (GraphiQL's editors are Monaco). */
  const editorText = (page: Page, marker: string) =>
    page.evaluate(
      (m) =>
        [...document.querySelectorAll('.monaco-editor, .CodeMirror')]
          // Monaco draws spaces as no-break spaces
          .map((e) => (e as HTMLElement).innerText.replace(/\u00a0/g, ' '))
          .find((t) => t.includes(m)) ?? '',
      marker,
    );

  it('opens without a token, says where it goes, and loads the org schema once it is set', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const failedBeforeToken: string[] = [];
    const consoleErrors: string[] = [];
    page.on('response', (r) => void (r.status() >= 400 && failedBeforeToken.push(`${r.status()} ${r.url()}`)));
    page.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
    const firstIntrospection = page.waitForResponse((r) => r.url().endsWith('/graphql') && isIntrospection(r.request().postData()), { timeout: 120_000 });
    // 9 MB of GraphiQL: a loaded machine takes longer than playwright's default 30 s
    await page.goto(`${app.baseUrl}/graphql`, { timeout: 120_000 });
    await page.waitForSelector('.graphiql-container');
    // Before a token is set the schema fetch succeeds: a one-field schema saying where the token
    // goes, instead of 401s and "Error fetching schema".
    const placeholder = await firstIntrospection;
    expect(placeholder.status()).toBe(200);
    expect(JSON.stringify(await placeholder.json())).toContain('open \\"Headers\\" below, replace <delivery or preview token>');
    await expect.poll(() => editorText(page, 'Open "Headers" below'), { timeout: 20_000 }).toContain('replace <delivery or preview token> with a token');
    await page.waitForTimeout(1000);
    expect(failedBeforeToken).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(await page.getByText('Error fetching schema').count()).toBe(0);

    // The token goes where the first query says: the Headers tab.
    await page.getByText('Headers', { exact: true }).click();
    await expect.poll(() => editorText(page, 'Bearer'), { timeout: 10_000 }).toContain('<delivery or preview token>');
    await page.locator('.graphiql-editor-tool .monaco-editor, .graphiql-editor-tool .CodeMirror').last().click();
    await page.keyboard.press('Control+A');
    // Pasted, as a person would (typed, the editor closes the brace a second time)
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, `{ "Authorization": "Bearer ${token}" }`);
    await expect.poll(() => editorText(page, 'Authorization'), { timeout: 10_000 }).toContain(token);

    // Re-fetch the schema (the sidebar button the first query names): now the org's own.
    const refetched = page.waitForResponse((r) => r.url().endsWith('/graphql') && isIntrospection(r.request().postData()));
    await page.getByRole('button', { name: /Re-fetch GraphQL schema/ }).click();
    const introspection = await refetched;
    expect(introspection.status()).toBe(200);
    expect(JSON.stringify(await introspection.json())).toContain('recipeCollection');

    // And the first query runs with it.
    const ran = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('entryCollection'));
    await page.getByRole('button', { name: /Execute query/ }).first().click();
    const result = (await (await ran).json()) as { data?: { entryCollection: { total: number } } };
    expect(result.data?.entryCollection.total).toBe(1);
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 10_000 }).toContain('Soup');
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
