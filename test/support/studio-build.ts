import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../shared/paths.js';

/**
 * Builds the Studio (dist/studio) when it is missing or older than its source, so the tests
 * that load it work on a fresh clone and after an edit without a manual `npm run build`.
 */
export async function ensureStudioBuilt(): Promise<void> {
  // test files run in parallel: one builds while the others wait (a build empties dist/studio)
  const lock = path.join(projectRoot, 'dist', '.studio-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    // the same script `npm run build` runs: it builds only when the source is newer
    execFileSync(process.execPath, [path.join(projectRoot, 'api', 'studio', 'build.mjs')], { cwd: projectRoot, stdio: 'inherit' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
