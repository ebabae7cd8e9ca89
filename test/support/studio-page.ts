import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { projectRoot } from '../../shared/paths.js';

/**
 * What every Studio browser suite does to a page: sign a person in through the form, ask axe-core
 * for serious or critical violations, and keep screenshots at 1440 and 390 px (nothing wider
 * than the screen at 390).
 */

export const STUDIO_ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'studio');
const AXE = path.join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');

/** A new browser session (its own cookies, kept in `contexts` to close), signed in through the sign-in form. */
export async function signedInPage(options: { browser: Browser; baseUrl: string; email: string; password: string; contexts: BrowserContext[] }): Promise<Page> {
  // axe-core is injected as an inline script, which the Studio's CSP (rightly) refuses
  const context = await options.browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
  options.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${options.baseUrl}/studio`);
  await page.getByLabel('Email').fill(options.email);
  await page.getByLabel('Password').fill(options.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Content' }).waitFor();
  return page;
}

/** No serious or critical axe-core violation on the page as it is. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, screen).toEqual([]);
}

/** Screenshots at 1440 and 390 px wide, accessible at both; at 390 nothing sticks out (named when something does). */
export async function shootStudio(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await expectAccessible(page, name);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
  );
  expect(overflow, `${name} overflows at 390 px by ${overflow} px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
  await expectAccessible(page, `${name} at 390 px`);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
}
