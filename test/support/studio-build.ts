import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../shared/paths.js';

const SOURCE = path.join(projectRoot, 'api', 'studio');
const BUILT = path.join(projectRoot, 'dist', 'studio', 'index.html');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(p) : statSync(p).mtimeMs);
  }
  return newest;
}

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
    if (builtAt() <= newestIn(SOURCE)) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return 0;
  }
}

function build(): void {
  execFileSync(path.join(projectRoot, 'node_modules', '.bin', 'vite'), ['build', '--config', path.join(SOURCE, 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: projectRoot,
    stdio: 'inherit',
    // vitest sets NODE_ENV=test, which would bundle React's development build
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
