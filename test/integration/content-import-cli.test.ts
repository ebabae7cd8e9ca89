import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../cli/export-command.js';
import { runImportCommand } from '../../cli/import-command.js';
import { freePort } from '../support/free-port.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('CLI');
  dir = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const lines = (n: number, extra: unknown[] = []) =>
  [
    { type: 'site', id: 'web', name: 'Web' },
    { type: 'model', alias: 'note', titleField: 'text', fields: [{ alias: 'text', type: 'text', required: true }] },
    ...Array.from({ length: n }, (_, i) => ({ type: 'entry', id: `n${i}`, model: 'note', siteId: 'web', fields: { text: `Note ${i}` } })),
    ...extra,
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');

describe('folio import (CLI)', () => {
  it('streams a file to the import endpoint and reports per-line failures', async () => {
    const file = path.join(dir, 'notes.ndjson');
    await writeFile(file, lines(2500, [{ type: 'entry', model: 'note', siteId: 'web', fields: {} }]));
    const out: string[] = [];
    const r = await runImportCommand({ file, url: t.baseUrl, token: org.manageToken, progress: false, log: (l) => out.push(l) });
    expect(r).toMatchObject({ status: 200, lines: 2503, succeeded: 2502, failed: 1 });
    expect(out[0]).toBe('2502 of 2503 lines applied, 1 failed.');
    expect(out[1]).toBe('  line 2503 (entry): fields.text: required');
    expect((await t.json('/management/v1/entries/n2499', { token: org.manageToken })).body.result.title).toBe('Note 2499');
  });

  it('reports an HTTP failure (wrong token) and the process exits non-zero', async () => {
    const file = path.join(dir, 'one.ndjson');
    await writeFile(file, lines(1));
    const out: string[] = [];
    const r = await runImportCommand({ file, url: t.baseUrl, token: 'folio_nope', progress: false, log: (l) => out.push(l) });
    expect(r.status).toBe(401);
    expect(out[0]).toContain('import failed: HTTP 401');

    const run = promisify(execFile);
    const ok = await run('npx', ['tsx', 'cli/folio.ts', 'import', file, '--token', org.manageToken, '--url', t.baseUrl, '--no-progress']);
    expect(ok.stdout).toContain('3 of 3 lines applied, 0 failed.');
    await expect(run('npx', ['tsx', 'cli/folio.ts', 'import', file, '--url', t.baseUrl], { env: { ...process.env, FOLIO_TOKEN: '' } })).rejects.toMatchObject({ code: 2 });
  });

  it("runs the README's command as written: the token and the server from FOLIO_TOKEN and FOLIO_URL, never on npm's echoed command line", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const command = readme.split('\n').find((l) => /^FOLIO_TOKEN=\S+ FOLIO_URL=\S+ npm run folio -- import \S+$/.test(l));
    expect(command).toBeDefined();
    expect(readme).not.toMatch(/npm run folio -- import[^\n`]*--token/);
    const file = path.join(dir, command!.split(' ').at(-1)!);
    await writeFile(file, lines(3));
    // npm run folio -- … is `tsx cli/folio.ts …`; only the environment carries the secret
    const run = promisify(execFile);
    const env = { ...process.env, FOLIO_TOKEN: org.manageToken, FOLIO_URL: t.baseUrl };
    const out = await run('npx', ['tsx', 'cli/folio.ts', 'import', file, '--no-progress'], { env });
    expect(out.stdout).toContain('5 of 5 lines applied, 0 failed.');
  });

  it('names the URL and the reason when the server cannot be reached, and `folio help` exits 0', async () => {
    const file = path.join(dir, 'unreachable.ndjson');
    await writeFile(file, lines(1));
    const port = await freePort();
    const run = promisify(execFile);
    const failed = await run('npx', ['tsx', 'cli/folio.ts', 'import', file, '--token', org.manageToken, '--url', `http://127.0.0.1:${port}`, '--no-progress']).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`folio: cannot reach http://127.0.0.1:${port}/management/v1/import: `);
    expect(failed.stderr).toContain('ECONNREFUSED');

    const help = await run('npx', ['tsx', 'cli/folio.ts', 'help']);
    expect(help.stdout).toContain('Usage: npm run folio -- import FILE');
  });
});

describe('folio export (CLI)', () => {
  it('writes the org\'s content to a .gz file that folio import reads into another org', async () => {
    const source = await t.createOrg('CLI export');
    const seed = path.join(dir, 'seed.ndjson');
    await writeFile(seed, lines(1500));
    expect(await runImportCommand({ file: seed, url: t.baseUrl, token: source.manageToken, progress: false, log: () => {} })).toMatchObject({ failed: 0 });
    const file = path.join(dir, 'content.ndjson.gz');
    const out: string[] = [];
    const exported = await runExportCommand({ file, url: t.baseUrl, token: source.manageToken, progress: false, log: (l) => out.push(l) });
    expect(exported).toMatchObject({ status: 200, lines: 1502 });
    expect(out[0]).toMatch(/^1502 lines \([0-9.]+ MB\) written to .*content\.ndjson\.gz\.$/);
    expect(gunzipSync(await readFile(file)).toString().split('\n')[0]).toBe(JSON.stringify({ type: 'site', id: 'web', name: 'Web' }));
    const target = await t.createOrg('CLI import');
    const imported = await runImportCommand({ file, url: t.baseUrl, token: target.manageToken, progress: false, log: () => {} });
    expect(imported).toMatchObject({ status: 200, lines: 1502, succeeded: 1502, failed: 0 });
    expect((await t.json('/management/v1/entries/n1499', { token: target.manageToken })).body.result.title).toBe('Note 1499');
    const refused = await runExportCommand({ file: path.join(dir, 'no.ndjson'), url: t.baseUrl, token: 'folio_nope', progress: false, log: (l) => out.push(l) });
    expect(refused.status).toBe(401);
    expect(out.at(-1)).toContain('export failed: HTTP 401');
  });
});

