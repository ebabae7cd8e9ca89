import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';

/**
 * The README's examples marked `<!-- readme-test: … -->` run as written against a fresh
 * embedded server, from a folder whose `data` is the server's DATA_DIR (as after `npm start` in
 * a clone), so they cannot rot.
 */
async function readmeBlock(name: string): Promise<string> {
  const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
  const marker = readme.indexOf(`<!-- readme-test: ${name} -->`);
  if (marker < 0) throw new Error(`README has no block marked ${name}`);
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (!m) throw new Error(`no sh block after the marker ${name}`);
  return m[1];
}

let dir: string;
let server: ReturnType<typeof spawn>;
let receiverPort: number;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'folio-readme-'));
  const dataDir = path.join(dir, 'server-data');
  await symlink(dataDir, path.join(dir, 'data'));
  // as in a clone: the receiver example imports a dependency of the project
  await symlink(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
  receiverPort = await freePort();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: projectRoot,
    // started as the webhook section says, for a receiver on this machine
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', CLICKHOUSE_URL: '', S3_BUCKET: '', PORT: String(port), DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(async () => {
  await stopChild(server);
  await rm(dir, { recursive: true, force: true });
});

/** A block pasted into a shell without -e: each block stops at its first failure by itself. */
const runBlock = async (name: string, cwd = dir) =>
  spawnSync('bash', ['-c', await readmeBlock(name)], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO: url, RECEIVER_PORT: String(receiverPort) },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('README examples', () => {
  it('the first organization: created with the admin token from data/admin-token', async () => {
    const run = await runBlock('first-organization');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: true, result: { slug: 'acme', token: expect.stringMatching(/^folio_/) } });
  });

  it('the modelling walk-through runs as written and reads the article back through GraphQL', async () => {
    const run = await runBlock('walkthrough');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lastLine = run.stdout.trim().split('\n').pop()!;
    // the last answer is the GraphQL one; the ones before it are the management calls' envelopes
    const answer = JSON.parse(lastLine.slice(lastLine.lastIndexOf('{"data"')));
    expect(answer.data.articleCollection).toMatchObject({ total: 1, items: [{ system: { title: 'Hello, data' }, author: { name: 'Ada Lovelace' } }] });
  }, 90_000);

  it('the walk-through run again (the organization exists) stops at the 409 with its message, pasted into a shell without -e', async () => {
    const run = spawnSync('bash', ['-c', await readmeBlock('walkthrough')], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO: url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toBe('An organization with slug "walk-through" already exists.');
    expect(run.stdout.trim()).toBe('');
  }, 90_000);

  it('edge caching: a publishable key in the URL, caching headers, a 304, a purge target', async () => {
    const run = await runBlock('edge');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.trim().split('\n').map((l) => l.trim());
    expect(JSON.parse(lines[0])).toMatchObject({ data: { __typename: 'Query' } });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cache-control: public, max-age=60, stale-while-revalidate=300$/i),
        expect.stringMatching(/^etag: "[A-Za-z0-9_-]{43}"$/i),
        expect.stringMatching(/^surrogate-key: o\.[A-Za-z0-9]+$/i),
        '304',
        '["cloudflare","023e105f4ecef8ad9ca31a8372d0c353",true]',
      ]),
    );
  }, 90_000);

  it('export → import: one organization\'s content into another, gzip both ways', async () => {
    const run = await runBlock('export');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim()).toBe('[3,3,0]');
  }, 90_000);

  it('locales: an entry read in de-AT, ordered by its values there, with the chain to de-DE', async () => {
    const run = await runBlock('locales');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim()).toBe('[["Banane","B","de-AT"],["Marille","A","de-AT"]]');
  }, 90_000);

  it('traffic per entry: URL patterns, pushed lines, the entries report, "most read" in GraphQL', async () => {
    const run = await runBlock('entry-traffic');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim()).toBe('[["Hello",3],["Second",1]]');
  }, 90_000);

  it('analytics filters: a filtered report compared with the day before, its campaigns, a bad filter', async () => {
    const run = await runBlock('analytics-filters');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      '["raw",300,{"absolute":300,"relative":null}]',
      '[[{"name":"newsletter","count":2},{"name":"hn","count":1}],[{"name":"email","count":2}]]',
      'country: must be a two-letter country code (ISO 3166-1), e.g. DE.',
    ]);
  }, 90_000);

  it('people: invite an author and an editor, the author\'s publish is 403, the editor\'s works, the audit log names both', async () => {
    const run = await runBlock('people');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['DRAFT', '403', 'PUBLISHED', '[["entry.published","eve@example.com"],["entry.created","ann@example.com"]]']);
  }, 90_000);

  it('the webhook receiver verifies both signed deliveries, and the log shows them delivered', async () => {
    const run = await runBlock('webhooks');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.slice(0, 2).map((l) => l.replace(/^msg_[A-Za-z0-9]+ /, ''))).toEqual(['entry.created n1 PUBLISHED', 'entry.published n1 PUBLISHED']);
    expect(lines.slice(-2)).toEqual(['["entry.published","succeeded",1,204]', '["entry.created","succeeded",1,204]']);
  }, 90_000);

  it('tokens and the platform operator: a lost manage token recovered, a rotation, a suspension, a deletion', async () => {
    const run = await runBlock('tokens-and-admin');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      '["initial manage token","recovered"]',
      '["ci",true,true]',
      'suspended',
      '["This organization is suspended: Unpaid invoice."]',
      'active',
      'deleting',
      '["deleted",true]',
    ]);
  }, 90_000);
});

describe('README examples that fail', () => {
  /** Each block's first call creates an organization, with this slug. */
  const firstSlugs: Record<string, string | null> = {
    walkthrough: 'walk-through',
    export: 'shop-a',
    locales: 'fruit',
    edge: 'edge',
    webhooks: 'hooks',
    people: 'team',
    'entry-traffic': 'press',
    // its organization is deleted at its end, so the slug is free again
    'tokens-and-admin': null,
  };

  it('stop at the first failed call with its message: a wrong admin token', async () => {
    const wrong = await mkdtemp(path.join(os.tmpdir(), 'folio-readme-wrong-'));
    try {
      await mkdir(path.join(wrong, 'data'));
      await writeFile(path.join(wrong, 'data', 'admin-token'), 'folio_wrong\n');
      for (const name of Object.keys(firstSlugs)) {
        const run = await runBlock(name, wrong);
        expect(run.status, name).not.toBe(0);
        expect(run.stderr.trim(), name).toBe('The platform admin token is invalid.');
        expect(run.stdout.trim(), name).toBe('');
      }
      expect(await readdir(wrong)).toEqual(['data']);
    } finally {
      await rm(wrong, { recursive: true, force: true });
    }
  }, 120_000);

  it('run again, stop at the 409 (the organization exists) with its message', async () => {
    for (const [name, slug] of Object.entries(firstSlugs)) {
      if (!slug) continue;
      const run = await runBlock(name);
      expect(run.status, name).not.toBe(0);
      expect(run.stderr.trim(), name).toBe(`An organization with slug "${slug}" already exists.`);
      expect(run.stdout.trim(), name).toBe('');
    }
  }, 120_000);

  it('leave no file where they ran but the git-ignored webhook receiver', async () => {
    expect((await readdir(dir)).sort()).toEqual(['data', 'node_modules', 'receiver.mjs', 'server-data']);
    expect(spawnSync('git', ['check-ignore', '-q', 'receiver.mjs'], { cwd: projectRoot }).status).toBe(0);
  });
});
