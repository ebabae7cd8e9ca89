import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import type { TestApp } from './harness.js';

// What the Studio's browser tests do on every screen: sign in through the form, check it with
// axe-core, and keep it at 1440 and 390 px wide (nothing wider than the screen at 390).

export const STUDIO_ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'studio');
const AXE = path.join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');

/** A new member of the manage token's organization with `role` (a built-in name or a role id), through an invitation: their email. */
export async function newMember(app: TestApp, manageToken: string, role: string, password: string): Promise<string> {
  const email = `${role.replace(/\W/g, '').slice(0, 20)}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await app.json('/management/v1/invitations', { token: manageToken, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const accepted = await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password } });
  expect(accepted.status).toBe(200);
  return email;
}

/** A new browser session (its own cookies) signed in through the sign-in form; closed by `contexts`' owner. */
export async function signIn(browser: Browser, contexts: BrowserContext[], baseUrl: string, email: string, password: string): Promise<Page> {
  // axe-core is injected as an inline script, which the Studio's CSP (rightly) refuses
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${baseUrl}/studio`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
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

/** Screenshots at 1440 and 390 px wide; at 390 nothing is wider than the screen and axe is clean too. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await expectAccessible(page, `${name} at 1440 px`);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} overflows at 390 px by ${overflow} px`).toBeLessThanOrEqual(0);
  await expectAccessible(page, `${name} at 390 px`);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
}
