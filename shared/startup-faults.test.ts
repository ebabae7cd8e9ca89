import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startupFaultLine } from './startup-faults.js';

/** Node's own error for a package that is not installed (resolved from a folder without node_modules). */
function notInstalled(name: string): unknown {
  try {
    createRequire(path.join(os.tmpdir(), 'no-packages-here', 'x.js'))(name);
  } catch (err) {
    return err;
  }
  throw new Error(`${name} resolved from ${os.tmpdir()}`);
}

describe('startupFaultLine', () => {
  const config = { dataDir: '/srv/folio' };

  it('an embedded engine left out of the image names the variable that replaces it', () => {
    expect(startupFaultLine(notInstalled('chdb'), config)).toBe('the embedded ClickHouse (chDB) is not installed here (production images leave it out): set CLICKHOUSE_URL to a ClickHouse server');
    expect(startupFaultLine(notInstalled('@electric-sql/pglite'), config)).toBe('the embedded Postgres (PGlite) is not installed here (production images leave it out): set DATABASE_URL to a Postgres server');
  });

  it('anything else is its first line', () => {
    expect(startupFaultLine(new Error('boom\n    at somewhere'), config)).toBe('start-up failed: boom');
  });
});
