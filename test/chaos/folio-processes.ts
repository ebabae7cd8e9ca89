import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { projectRoot } from '../../shared/paths.js';

/** One product process (`api/main.ts` or `workers/main.ts`) started as a deployment starts it. */
export interface FolioProcess {
  readonly name: string;
  alive(): boolean;
  /** Every line it printed (pino JSON), to show when something goes wrong. */
  output(): string;
  /** Unhandled crashes it reported before exiting on its own. */
  exits(): number[];
  start(): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface FolioProcessOptions {
  name: string;
  entry: 'api/main.ts' | 'workers/main.ts';
  env: Record<string, string>;
  /** Resolves when the process can take work. */
  ready(p: { output(): string }): Promise<boolean>;
  /** How long a start may take (default 90 s). */
  startTimeoutMs?: number;
}

export function folioProcess(options: FolioProcessOptions): FolioProcess {
  let child: ChildProcess | undefined;
  let out = '';
  const exitCodes: number[] = [];
  let killing = false;
  return {
    name: options.name,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    output: () => out,
    exits: () => exitCodes,
    async start() {
      killing = false;
      child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const started = child;
      started.stdout!.on('data', (d) => (out += d));
      started.stderr!.on('data', (d) => (out += d));
      started.on('exit', (code) => {
        if (!killing) exitCodes.push(code ?? -1);
      });
      const limitMs = options.startTimeoutMs ?? 90_000;
      const deadline = Date.now() + limitMs;
      while (!(await options.ready({ output: () => out }))) {
        if (started.exitCode !== null) throw new Error(`${options.name} exited during start (${started.exitCode}):\n${out.slice(-4000)}`);
        if (Date.now() > deadline) throw new Error(`${options.name} not ready within ${limitMs / 1000} s:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async kill(signal) {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      killing = true;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

/**
 * The environment the chaos suites start the production split with: its Postgres, Redis and S3,
 * no demo, no response cache (every request reaches the database) and no rate limit to refuse the load.
 */
export function splitEnv(o: { databaseUrl: string; redisUrl: string; s3: { bucket: string; endpoint: string; accessKeyId: string; secretAccessKey: string }; adminToken: string; poolSize: number }): Record<string, string> {
  return {
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    S3_BUCKET: o.s3.bucket,
    S3_ENDPOINT: o.s3.endpoint,
    S3_ACCESS_KEY_ID: o.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: o.s3.secretAccessKey,
    PLATFORM_ADMIN_TOKEN: o.adminToken,
    SEED_DEMO: 'false',
    GRAPHQL_RESPONSE_CACHE: 'false',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    DATABASE_POOL_SIZE: String(o.poolSize),
  };
}
