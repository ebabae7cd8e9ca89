import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's Chromium, which `.ci/run` installs: the browser tests drive it through playwright-core
// and skip themselves (saying why) where it is missing.

const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is here; warns once in the named test file's output when it is not. */
export function chromiumFor(testFile: string): boolean {
  const here = existsSync(CHROMIUM);
  if (!here) console.warn(`${testFile} skipped: no Chromium binary at ${CHROMIUM} (apt-get install chromium)`);
  return here;
}

/** Headless Chromium as every browser test runs it (no sandbox as root, no GPU), plus `args`. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', ...args] });
}
