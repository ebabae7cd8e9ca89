import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/**
 * A production deployment's first run: no PLATFORM_ADMIN_TOKEN (the admin API closed), so the
 * first organization comes from `folio create-organization`, run beside the API with its
 * DATABASE_URL; the manage token it prints works against the API.
 */
const folio = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'cli/folio.ts', ...args], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('folio create-organization', () => {
  it('without DATABASE_URL it says what it needs (exit 2)', () => {
    const run = folio(['create-organization', '--name', 'Acme', '--slug', 'acme'], {});
    expect([run.status, run.stderr.trim()]).toEqual([2, expect.stringContaining('create-organization needs DATABASE_URL')]);
  });

  describe.runIf(process.env.DATABASE_URL)('with the API\'s DATABASE_URL', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ env: { PLATFORM_ADMIN_TOKEN: '' } });
    });
    afterAll(async () => app?.close());

    it('creates the organization and prints a manage token that the API accepts; a taken slug is refused with its message', async () => {
      const slug = `first-${randomBase62(8).toLowerCase()}`;
      const env = { DATABASE_URL: process.env.DATABASE_URL! };
      const run = folio(['create-organization', '--name', 'First Org', '--slug', slug], env);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Created organization "First Org" (slug ${slug}`);
      const token = /^(folio_\S+)$/m.exec(run.stdout)?.[1];
      expect(token).toBeDefined();
      const models = await app.json('/management/v1/models', { token });
      expect(models.status).toBe(200);

      const again = folio(['create-organization', '--name', 'First Org', '--slug', slug], env);
      expect([again.status, again.stderr.trim()]).toEqual([1, `folio: An organization with slug "${slug}" already exists.`]);

      const bad = folio(['create-organization', '--name', 'X', '--slug', 'Not A Slug'], env);
      expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('slug: lowercase letters')]);
    }, 120_000);
  });
});
