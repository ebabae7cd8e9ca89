import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';

/**
 * The README, code comments, SQL and API descriptions say a rule where they use it: a reader of
 * the repository has none of the planning documents they were first written from, so a
 * reference to one ("seed 001", "DESIGN §4") tells them nothing.
 */
const REFERENCE = /DESIGN §\d|\bseed 00\d|\bSeed 00\d|\bseed rule \d/;

describe('references to documents outside the repository', () => {
  it('none in tracked files', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.md', '*.sql', '*.yaml', '*.json', '.ci/*'], { cwd: projectRoot, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && f !== 'test/integration/docs-references.test.ts' && f !== 'package-lock.json');
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(projectRoot, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (REFERENCE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
