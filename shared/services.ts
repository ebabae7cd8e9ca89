import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { Config } from './config.js';
import { createDb, type Db } from './adapters/db/index.js';
import { migratePostgres } from './adapters/db/migrate.js';
import { createBlobStore, type BlobStore } from './adapters/blobs/index.js';
import { createQueue, type JobQueue } from './adapters/queue/index.js';
import { createAnalyticsStore, type AnalyticsStore } from './adapters/clickhouse/index.js';
import { followAssetChanges } from './assets/asset-invalidation.js';
import { createAssetCaches, type AssetCaches } from './assets/asset-caches.js';
import { locateFfmpeg } from './assets/ffmpeg.js';
import { createImagePathVerifier, type ImagePathVerifier } from './assets/verified-image-paths.js';
import { createEnricher, type Enricher } from './ingest/enrich.js';
import { createVisitorSalts, type VisitorSalts } from './ingest/visitor-salts.js';
import { createEntryResolver, type EntryResolver } from './ingest/entry-resolver.js';
import { createDayVisitors, type DayVisitors } from './analytics/day-visitors.js';
import { createEntryTrafficReader, type EntryTrafficReader } from './analytics/entry-traffic-reader.js';
import { createEventBus, type EventBus } from './adapters/bus/index.js';
import { createRateLimiter, type RateLimiter } from './adapters/rate-limit/index.js';
import { createTokenVerifier } from './tenancy/authenticate.js';
import { createSuspensions, type Suspensions } from './tenancy/suspensions.js';
import { createTokenUsage, type TokenUsage } from './tenancy/token-usage.js';
import { createUsageMeter, type UsageMeter } from './tenancy/usage-meter.js';
import { withSessions, type SessionAwareVerifier } from './people/session-verifier.js';
import { createMailer, type Mailer } from './adapters/mail/index.js';
import { auditSettings, type AuditActor } from './audit/audit-actor.js';
import { createMetrics, type Metrics } from './metrics.js';
import { loadSecrets, resolveAdminToken, type Secrets } from './secrets.js';
import type { Logger } from './logger.js';
import { createContentVersions, type ContentVersions } from './delivery/content-versions.js';
import { createEventFeed, type EventFeed } from './events/event-feed.js';
import { createWebhookSender, type WebhookSender } from './webhooks/webhook-sender.js';
import { createDeliveryLedger, type DeliveryLedger } from './webhooks/delivery-ledger.js';
import type { DeliveryTargets } from './webhooks/delivery-target.js';
import { createDocumentStore, type DocumentStore } from './edge/document-store.js';
import { createEdgeUrlRecorder, type EdgeUrlRecorder } from './edge/edge-url-recorder.js';
import { createPurgeDeliveryTarget, PURGE_KIND } from './edge/purge-delivery-target.js';
import { compileTrustProxy, createClientAddress, type TrustProxy } from './tenancy/client-address.js';

/** Everything a request handler or a job may use; built once per process from the config. */
export interface Services {
  config: Config;
  logger: Logger;
  db: Db;
  blobs: BlobStore;
  queue: JobQueue;
  analytics: AnalyticsStore;
  bus: EventBus;
  rateLimiter: RateLimiter;
  /** API tokens and members' sessions. */
  auth: SessionAwareVerifier;
  /** When tokens were last used, written in batches (at most once a minute per token). */
  tokenUsage: TokenUsage;
  /** Requests and image transforms per organization and month, written in batches every few seconds. */
  usageMeter: UsageMeter;
  /** The suspended organizations, refused at every door (re-read every 2 s and on the bus). */
  suspensions: Suspensions;
  /** Invitations and password resets by email (SMTP_URL); disabled without it. */
  mailer: Mailer;
  metrics: Metrics;
  secrets: Secrets;
  /** The platform operator's token; undefined closes the admin API. */
  adminToken?: string;
  adminTokenFile?: string;
  /** The hops allowed to set X-Forwarded-For (TRUST_PROXY), and the caller's address they give. */
  trustProxy: TrustProxy;
  clientAddress: (req: IncomingMessage) => string;
  /** This process's memory of asset rows, originals and derivatives (see AssetCaches). */
  assetCaches: AssetCaches;
  /** The ffmpeg binary for video posters (FFMPEG_PATH or an npm package), looked up once; null when there is none. */
  ffmpeg: () => Promise<string | null>;
  /** Checks `/img/…` signatures with this process's signing secret, remembering good paths. */
  verifyImagePath: ImagePathVerifier;
  /** Turns log records into rows (GeoIP, user agents, bots, referers); opened on first use, then shared. */
  enricher: () => Promise<Enricher>;
  /** The daily salts of visitor keys, read from Postgres and remembered a while. */
  visitorSalts: VisitorSalts;
  /** Paths of CDN log lines → the entries they served (the sites' URL patterns). */
  entryResolver: EntryResolver;
  /** Traffic per entry for the delivery API (system.traffic, ordering by traffic); rankings remembered a minute. */
  entryTraffic: EntryTrafficReader;
  /** Whole days' unique visitors for the overview, remembered once merged (checked at each read). */
  dayVisitors: DayVisitors;
  /** Word of committed events (LISTEN on the outbox), for the webhook dispatcher. */
  eventFeed: EventFeed;
  /** Organizations' content versions, kept current in memory by their NOTIFY (the response cache's keys). */
  contentVersions: ContentVersions;
  /** This process's keep-alive connections to webhook receivers. */
  webhookSender: WebhookSender;
  /** This process's claims and records of webhook attempts, many to a statement under load. */
  webhookLedger: DeliveryLedger;
  /** What subscriptions deliver to besides HTTP webhooks, by kind: the edge domain's purge targets. */
  deliveryTargets: DeliveryTargets;
  /**
   * Runs a request's work as its actor (token or member): the transactions it opens record it
   * (`folio.actor…` settings), which the version history and the audit log keep.
   */
  actor: AsyncLocalStorage<AuditActor>;
  /** GraphQL documents sent by id: automatic persisted queries and registered documents. */
  documents: DocumentStore;
  /** Publicly cacheable URLs served, by surrogate key, for generic purge targets. */
  edgeUrls: EdgeUrlRecorder;
}

export interface ServiceOptions {
  /** Tests: PGlite in memory instead of `<dataDir>/pg`. */
  inMemoryDb?: boolean;
  /** Tests: isolates Redis keys and channels of one test file from the others. */
  namespace?: string;
  /** Pre-built pieces (tests share one chDB per process: chDB opens one data folder per process). */
  blobs?: BlobStore;
  analytics?: AnalyticsStore;
}

/**
 * Builds the adapters the config selects (production when a service variable is set, embedded
 * otherwise) and applies migrations. Close with `closeServices`.
 */
export async function createServices(config: Config, logger: Logger, options: ServiceOptions = {}): Promise<Services> {
  const ns = options.namespace ? `${options.namespace}:` : '';
  // The token or member on whose behalf this part of the program writes (a REST request's): every
  // transaction records it in `folio.actor…`, which the version-history triggers and the audit log keep.
  const actor = new AsyncLocalStorage<AuditActor>();
  const transactionSettings = () => {
    const current = actor.getStore();
    return current === undefined ? undefined : auditSettings(current);
  };
  const db = await createDb(config, { transactionSettings, inMemory: options.inMemoryDb && !config.databaseUrl });
  const migrations = await migratePostgres(db);
  if (migrations.applied.length > 0) logger.info({ applied: migrations.applied }, 'postgres migrations applied');

  const metrics = createMetrics();
  const bus = await createEventBus(config, { channelPrefix: `folio:${ns}` });
  const [blobs, queue, analytics, rateLimiter, secrets, admin] = await Promise.all([
    options.blobs ?? createBlobStore(config),
    createQueue(config, {
      prefix: `folio${ns ? ':' + ns.slice(0, -1) : ''}`,
      logger,
      // An image request waits for its transform: past a few hundred queued, 503 + Retry-After
      // serves clients better than minutes of waiting. Log batches are durable in the spool.
      maxWaiting: { 'image-transform': 256 },
    }),
    // Content delivery does not wait for ClickHouse: it connects in the background.
    options.analytics ?? createAnalyticsStore(config, { logger, background: true }),
    createRateLimiter(config, { keyPrefix: `folio:${ns}rl:`, onFailOpen: () => metrics.rateLimitFailOpen.inc() }),
    loadSecrets(db, config),
    resolveAdminToken(config),
  ]);
  const tokenUsage = createTokenUsage(db, (err) => logger.warn({ err }, 'recording when tokens were last used failed'));
  const suspensions = await createSuspensions({ db, bus, onError: (err) => logger.warn({ err }, 'reading the suspended organizations failed; the last list stays in force') });
  const assetCaches = createAssetCaches();
  followAssetChanges({ assetCaches, bus });
  const trustProxy = compileTrustProxy(config.trustProxy);
  const edgeUrls = createEdgeUrlRecorder(db, logger);
  return {
    config,
    logger,
    db,
    blobs,
    queue,
    analytics,
    bus,
    rateLimiter,
    auth: withSessions(createTokenVerifier({ db, bus, ttlMs: config.tokenCacheTtlMs, rateLimiter, failures: config.authFailures, usage: tokenUsage }), { db, bus, ttlMs: config.tokenCacheTtlMs }),
    tokenUsage,
    usageMeter: createUsageMeter(db, (err) => logger.warn({ err }, 'recording usage failed; these counts are lost')),
    suspensions,
    mailer: createMailer(config),
    metrics,
    secrets,
    adminToken: admin.token,
    adminTokenFile: admin.file,
    trustProxy,
    clientAddress: createClientAddress(trustProxy),
    assetCaches,
    ffmpeg: once(() => locateFfmpeg(config.ffmpegPath)),
    verifyImagePath: createImagePathVerifier(secrets.signing),
    enricher: once(() => createEnricher()),
    visitorSalts: createVisitorSalts(db),
    entryResolver: createEntryResolver(db),
    entryTraffic: createEntryTrafficReader(analytics),
    dayVisitors: createDayVisitors(),
    eventFeed: createEventFeed(db, (err) => logger.warn({ err }, 'listening for committed events failed; webhooks are dispatched on the tick')),
    contentVersions: createContentVersions(db, (err) => logger.warn({ err }, 'listening for content versions failed; the response cache reads them from Postgres')),
    webhookSender: createWebhookSender({ timeoutMs: config.webhooks.timeoutMs, allowPrivateTargets: config.webhooks.allowPrivateTargets }),
    // a claim outlives the attempt's timeout (recording it included)
    webhookLedger: createDeliveryLedger(db, { claimMs: config.webhooks.timeoutMs + 5000, disableAfter: config.webhooks.disableAfter }),
    actor,
    documents: createDocumentStore(db),
    edgeUrls,
    // the edge domain plugs its purge targets into the webhooks machinery here, where both are known
    deliveryTargets: new Map([[PURGE_KIND, createPurgeDeliveryTarget({ db, edgeUrls, apis: config.purgeApis })]]),
  };
}

/** `f`, called at most once: the first call's result is kept (a lazily created service). */
function once<T>(f: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: f() }).value;
}

/** Closes in dependency order: stop jobs first, then stores. Each close is attempted. */
export async function closeServices(s: Services): Promise<void> {
  const steps: Array<[string, () => Promise<void>]> = [
    ['suspensions', async () => s.suspensions.close()],
    ['tokenUsage', () => s.tokenUsage.close()],
    ['usageMeter', () => s.usageMeter.close()],
    ['eventFeed', () => s.eventFeed.close()],
    ['contentVersions', () => s.contentVersions.close()],
    ['edgeUrls', () => s.edgeUrls.close()],
    ['queue', () => s.queue.close()],
    ['webhookSender', async () => s.webhookSender.close()],
    ['mailer', async () => s.mailer.close()],
    ['rateLimiter', () => s.rateLimiter.close()],
    ['bus', () => s.bus.close()],
    ['analytics', () => s.analytics.close()],
    ['blobs', () => s.blobs.close()],
    ['db', () => s.db.close()],
  ];
  for (const [name, close] of steps) {
    try {
      await close();
    } catch (err) {
      s.logger.warn({ err, dependency: name }, 'error while closing');
    }
  }
}
