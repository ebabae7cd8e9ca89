import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { projectRoot } from '../../shared/paths.js';

// What every Studio browser test asks of a screen: no serious or critical axe-core violation,
// screenshots at 1440 and 390 px (CI artefacts), and nothing wider than a 390-px screen.

export const STUDIO_ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'studio');
const AXE = path.join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');

export const makeArtifactsDir = () => mkdir(STUDIO_ARTIFACTS, { recursive: true });

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

/** Screenshots at 1440 and 390 px wide; at 390 nothing is wider than the screen and axe-core finds nothing serious. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  // on failure, name the elements reaching past the screen's edge
  const past =
    overflow > 0
      ? await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
        )
      : [];
  expect(overflow, `${name} overflows at 390 px by ${overflow} px: ${past.join(', ')}`).toBeLessThanOrEqual(0);
  await accessible(page, `${name} at 390 px`);
  await page.screenshot({ path: path.join(STUDIO_ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
}
