import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/http/openapi/index.js';
import { projectRoot } from '../../shared/paths.js';

/**
 * The OpenAPI document as client generators and linters meet it: a real linter (Redocly's) finds
 * no error, and every operation has a unique operationId. (Every response the integration suites
 * receive is checked against it by the harness: test/support/openapi-responses.ts.)
 */
type Doc = { paths: Record<string, Record<string, { operationId?: string }>> };

describe('the OpenAPI document', () => {
  it('passes `redocly lint` without errors', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(buildOpenApiDocument('https://folio.example.com'), null, 2));
      let out: string;
      try {
        out = execFileSync(path.join(projectRoot, 'node_modules/.bin/redocly'), ['lint', file, '--format=json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (err) {
        out = (err as { stdout: string }).stdout; // exit 1 when there are errors; the report says which
      }
      const report = JSON.parse(out) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names every operation with a unique operationId', () => {
    const doc = buildOpenApiDocument('http://x') as unknown as Doc;
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(ids.length).toBeGreaterThan(70);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
