import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import type { TestApp } from './harness.js';

// What the Studio's browser suites share: members signed in through the form, axe-core on a
// screen, and the screenshots kept as artefacts.

export const STUDIO_ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'studio');
export const STUDIO_PASSWORD = 'correct horse battery staple';
const AXE = path.join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');

/** Invites `role` into the org of `manageToken` and accepts: the member's email (the password is STUDIO_PASSWORD). */
export async function studioMember(app: TestApp, manageToken: string, role: string): Promise<string> {
  const email = `${role.replace(/\W/g, '').slice(0, 20)}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await app.json('/management/v1/invitations', { token: manageToken, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const accepted = await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: STUDIO_PASSWORD } });
  expect(accepted.status).toBe(200);
  return email;
}

/** A new browser session (its own cookies, kept in `contexts` for closing), signed in through the sign-in form. */
export async function signedInPage(browser: Browser, baseUrl: string, email: string, contexts: BrowserContext[]): Promise<Page> {
  // axe-core is injected as an inline script, which the Studio's CSP (rightly) refuses
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${baseUrl}/studio`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(STUDIO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Content' }).waitFor();
  return page;
}

/** No serious or critical axe-core violation on the page as it is. */
export async function accessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, screen).toEqual([]);
}

/** Screenshots at 1440 and 390 px wide; at 390 nothing is wider than the screen and axe finds nothing. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  // the elements that stick out, named when something does
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
  );
  expect(overflow, `${name} overflows at 390 px by ${overflow} px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
  await accessible(page, `${name} at 390 px`);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
}
