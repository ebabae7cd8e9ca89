import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration is environment variables only, parsed and validated once at start-up and passed
 * into factories. A service variable that is set selects the production adapter; none set means
 * the embedded one (PGlite, in-process queue, local folder, chDB).
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const intFrom = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

const boolFrom = (def: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

const envSchema = z.object({
  PORT: intFrom(3000, 0, 65535),
  TRUST_PROXY: z.string().optional().transform((v) => (v === undefined || v.trim() === '' ? 'loopback, linklocal, uniquelocal' : v.trim())),
  // 0: none (the worker process's health endpoint)
  HEALTH_PORT: intFrom(0, 0, 65535),
  HOST: optionalString,
  DATA_DIR: optionalString,
  PUBLIC_BASE_URL: optionalString,
  LOG_LEVEL: optionalString,
  PLATFORM_ADMIN_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  SIGNING_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: intFrom(16, 1, 1000),
  REDIS_URL: optionalString,
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: boolFrom(true),
  CLICKHOUSE_URL: optionalString,
  CLICKHOUSE_DATABASE: optionalString,
  // ClickHouse computes a row's TTL as a DateTime, which ends in 2106: a longer retention would
  // wrap around and drop every new row as it is inserted.
  CLICKHOUSE_RAW_TTL_DAYS: intFrom(395, 1, 20_000),
  RATE_LIMIT_PER_SECOND: intFrom(50, 1, 1_000_000),
  RATE_LIMIT_BURST: intFrom(200, 1, 10_000_000),
  RATE_LIMIT_FAIL_OPEN_MS: intFrom(60_000, 0, 86_400_000),
  AUTH_FAILURES_BURST: intFrom(30, 1, 10_000_000),
  AUTH_FAILURES_PER_MINUTE: intFrom(30, 1, 60_000_000),
  IMAGE_MISS_MEGAPIXELS_PER_MINUTE: intFrom(600, 50, 1_000_000_000),
  IMAGE_TRANSFORM_SHARE_SECONDS: intFrom(4, 1, 3600),
  BODY_LIMIT_BYTES: intFrom(1_048_576, 1024),
  INGEST_BODY_LIMIT_BYTES: intFrom(64 * 1_048_576, 1024),
  UPLOAD_LIMIT_BYTES: intFrom(512 * 1_048_576, 1024),
  // the largest import the bench sends (300,000 entries in three locales) is about 200 MB
  IMPORT_BODY_LIMIT_BYTES: intFrom(256 * 1_048_576, 1024),
  TOKEN_CACHE_TTL_MS: intFrom(5000, 0, 5000),
  SMTP_URL: optionalString,
  SSO_ALLOW_HTTP_ISSUERS: boolFrom(false),
  SSO_ALLOW_PRIVATE_ISSUERS: boolFrom(false),
  MAIL_FROM: optionalString,
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000, 0),
  SHUTDOWN_READINESS_DELAY_MS: intFrom(5000, 0, 600_000),
  SEED_DEMO: boolFrom(true),
  GRAPHQL_RESPONSE_CACHE: boolFrom(true),
  FFMPEG_PATH: optionalString,
  INGEST_MAX_PENDING_BATCHES: intFrom(1000, 1, 1_000_000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolFrom(false),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100, 60_000),
  // Seconds before each retry; the Standard Webhooks schedule (about 28 hours in all).
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v === undefined || v.trim() === '' ? '5,300,1800,7200,18000,36000,36000' : v).split(',').map((s) => Number(s.trim()));
      if (list.length > 20 || list.some((n) => !Number.isFinite(n) || n < 0 || n > 7 * 86_400)) {
        ctx.addIssue({ code: 'custom', message: 'must be up to 20 comma-separated delays in seconds (0 to 604800)' });
        return z.NEVER;
      }
      return list.map((n) => Math.round(n * 1000));
    }),
  WEBHOOK_DISABLE_AFTER: intFrom(5, 1, 1000),
  WEBHOOK_CONCURRENCY: intFrom(16, 1, 256),
  WEBHOOK_DISPATCH: boolFrom(true),
  FASTLY_API_URL: z.string().url().default('https://api.fastly.com'),
  CLOUDFLARE_API_URL: z.string().url().default('https://api.cloudflare.com'),
});

export interface S3Config {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export interface Config {
  port: number;
  host?: string;
  /** Folder for embedded data (PGlite, blobs, chDB, generated admin token). */
  dataDir: string;
  publicBaseUrl: string;
  logLevel: string;
  platformAdminToken?: string;
  /** Bearer token that `/metrics` asks for; unset, the endpoint is closed (403). */
  metricsToken?: string;
  /** HMAC secret for image URLs and continuation tokens; generated into DATA_DIR when unset. */
  signingSecret?: string;
  databaseUrl?: string;
  databasePoolSize: number;
  redisUrl?: string;
  s3?: S3Config;
  clickhouseUrl?: string;
  clickhouseDatabase: string;
  clickhouseRawTtlDays: number;
  /** `failOpenMs`: how long decisions fall back to this process's memory while Redis does not answer. */
  rateLimit: { perSecond: number; burst: number; failOpenMs: number };
  /** Failed authentications per client address (a token bucket) before 429. */
  authFailures: { perSecond: number; burst: number };
  /**
   * Image transforms an organization may start (cache misses), in megapixels of output: a minute's
   * worth at once, refilled over the minute; each miss costs its output's megapixels (at least 1).
   */
  imageMissBudget: { perSecond: number; burst: number };
  /**
   * Estimated transform time (ms) one organization may have queued or running at once, whatever
   * the other organizations do: its share of the transform workers. A single transform over it
   * still runs when the organization has none in flight.
   */
  imageTransformShareMs: number;
  /** `importBytes`: an import body, on the wire and once decoded. */
  limits: { bodyBytes: number; ingestBodyBytes: number; uploadBytes: number; importBytes: number; ingestMaxPendingBatches: number };
  tokenCacheTtlMs: number;
  /** Outgoing mail (invitations, password resets): an smtp:// or smtps:// URL; unset, no mail is sent. */
  smtpUrl?: string;
  /** Accept `http:` OpenID issuers (development and tests); production issuers are https only. */
  ssoAllowHttpIssuers: boolean;
  /** Accept OpenID issuers on loopback, private and link-local addresses (an issuer inside the network). */
  ssoAllowPrivateIssuers: boolean;
  /** The From of Folio's mail. */
  mailFrom: string;
  shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long an HTTP process keeps serving with `/readyz` failing before it stops
   * accepting: at least the load balancer's probe period times its failure threshold.
   */
  shutdownReadinessDelayMs: number;
  /** Where `workers/main` answers /healthz and /readyz for container probes; unset, nowhere. */
  healthPort?: number;
  /** Which hops may set X-Forwarded-For (see client-address.ts). */
  trustProxy: string;
  seedDemo: boolean;
  /** Reuse GraphQL results per org content version; off: every request executes. */
  graphqlResponseCache: boolean;
  /** An ffmpeg binary for video poster frames (else one from an npm package, else none). */
  ffmpegPath?: string;
  webhooks: {
    /** Deliver to loopback, private, link-local and metadata addresses too (tests, closed networks). */
    allowPrivateTargets: boolean;
    /** One attempt, from connecting to the end of the response. */
    timeoutMs: number;
    /** Wait before each retry (ms); its length + 1 is the number of attempts. */
    retryDelaysMs: number[];
    /** Deliveries in a row that fail every attempt before a webhook is disabled. */
    disableAfter: number;
    /** Deliveries in flight per worker process. */
    concurrency: number;
    /** Whether this process runs the dispatcher (LISTEN for events, the 5-s sweep); it delivers either way. */
    dispatch: boolean;
  };
  /** Where purge targets send their purges: the CDNs' API bases (a stand-in's in tests). */
  purgeApis: { fastly: string; cloudflare: string };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.S3_ENDPOINT !== undefined && e.S3_BUCKET === undefined) {
    throw new ConfigError('invalid configuration:\n  S3_BUCKET: required when S3_ENDPOINT is set');
  }
  const port = e.PORT;
  return {
    port,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR ?? './data'),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL ?? 'info',
    platformAdminToken: e.PLATFORM_ADMIN_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    signingSecret: e.SIGNING_SECRET,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    s3:
      e.S3_BUCKET !== undefined
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION ?? 'us-east-1',
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseDatabase: e.CLICKHOUSE_DATABASE ?? 'folio',
    clickhouseRawTtlDays: e.CLICKHOUSE_RAW_TTL_DAYS,
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST, failOpenMs: e.RATE_LIMIT_FAIL_OPEN_MS },
    authFailures: { burst: e.AUTH_FAILURES_BURST, perSecond: e.AUTH_FAILURES_PER_MINUTE / 60 },
    imageMissBudget: { burst: e.IMAGE_MISS_MEGAPIXELS_PER_MINUTE, perSecond: e.IMAGE_MISS_MEGAPIXELS_PER_MINUTE / 60 },
    imageTransformShareMs: e.IMAGE_TRANSFORM_SHARE_SECONDS * 1000,
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE,
      disableAfter: e.WEBHOOK_DISABLE_AFTER,
      concurrency: e.WEBHOOK_CONCURRENCY,
      dispatch: e.WEBHOOK_DISPATCH,
    },
    purgeApis: { fastly: e.FASTLY_API_URL.replace(/\/+$/, ''), cloudflare: e.CLOUDFLARE_API_URL.replace(/\/+$/, '') },
    limits: {
      bodyBytes: e.BODY_LIMIT_BYTES,
      ingestBodyBytes: e.INGEST_BODY_LIMIT_BYTES,
      uploadBytes: e.UPLOAD_LIMIT_BYTES,
      importBytes: e.IMPORT_BODY_LIMIT_BYTES,
      ingestMaxPendingBatches: e.INGEST_MAX_PENDING_BATCHES,
    },
    tokenCacheTtlMs: e.TOKEN_CACHE_TTL_MS,
    smtpUrl: e.SMTP_URL,
    ssoAllowHttpIssuers: e.SSO_ALLOW_HTTP_ISSUERS,
    ssoAllowPrivateIssuers: e.SSO_ALLOW_PRIVATE_ISSUERS,
    mailFrom: e.MAIL_FROM ?? 'Folio <folio@localhost>',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownReadinessDelayMs: e.SHUTDOWN_READINESS_DELAY_MS,
    healthPort: e.HEALTH_PORT || undefined,
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO,
    graphqlResponseCache: e.GRAPHQL_RESPONSE_CACHE,
    ffmpegPath: e.FFMPEG_PATH,
  };
}
