import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';
import type { Queryable } from './adapters/db/index.js';
import { generateToken } from './tenancy/token-format.js';

export interface Secrets {
  /** HMAC-SHA256 key for image URLs and continuation tokens. */
  signing: Buffer;
}

/** The configured secret, else one generated once and shared by all instances through Postgres. */
export async function loadSecrets(db: Queryable, config: Pick<Config, 'signingSecret'>): Promise<Secrets> {
  if (config.signingSecret) return { signing: Buffer.from(config.signingSecret, 'utf8') };
  await db.query(`INSERT INTO platform_secrets (name, value) VALUES ('signing', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32),
  ]);
  const { rows } = await db.query<{ value: Uint8Array }>(`SELECT value FROM platform_secrets WHERE name = 'signing'`);
  return { signing: Buffer.from(rows[0].value) };
}

/**
 * The platform operator's token: PLATFORM_ADMIN_TOKEN, or in embedded mode one generated at first
 * start into `<dataDir>/admin-token` (mode 0600). Production without it: the admin API is closed.
 */
export async function resolveAdminToken(
  config: Pick<Config, 'platformAdminToken' | 'databaseUrl' | 'dataDir'>,
): Promise<{ token?: string; file?: string; generated: boolean }> {
  if (config.platformAdminToken) return { token: config.platformAdminToken, generated: false };
  if (config.databaseUrl) return { generated: false };
  const file = path.join(config.dataDir, 'admin-token');
  try {
    return { token: (await readFile(file, 'utf8')).trim(), file, generated: false };
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const token = generateToken();
    await writeFile(file, token + '\n', { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    await chmod(file, 0o600);
    return { token: (await readFile(file, 'utf8')).trim(), file, generated: true };
  }
}
