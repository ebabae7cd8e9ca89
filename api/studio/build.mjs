// Builds the Studio into dist/studio unless that build is newer than every file of its source.
// `npm start` (through `npm run build`) and the tests run it: a rebuild empties dist/studio, so
// rebuilding what has not changed would pull the bundle from under a page that is loading it.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const source = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(source, '..', '..');
const built = path.join(root, 'dist', 'studio', 'index.html');

/** The newest modification time of the files under `dir`. */
function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(built).mtimeMs;
  } catch {
    return 0;
  }
}

if (!process.argv.includes('--force') && builtAt() > newestIn(source)) {
  console.log('Studio: dist/studio is up to date');
} else {
  execFileSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', path.join(source, 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    // a test runner's NODE_ENV=test would bundle React's development build
    env: { ...process.env, NODE_ENV: 'production' },
  });
  console.log('Studio: built into dist/studio');
}
