import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('thread pool outside vitest', () => {
  it('runs a .ts handler in a thread when the app itself runs under tsx', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'test/fixtures/queue/run-under-tsx.ts')],
      { cwd: root, timeout: 60_000 },
    );
    const result = JSON.parse(stdout) as { value: { text: string; threadId: number }; attempt: number };
    expect(result.value.text).toBe('under tsx');
    expect(result.value.threadId).toBeGreaterThan(0);
    expect(result.attempt).toBe(1);
  });
});
