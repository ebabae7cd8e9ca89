/**
 * `npm run bench:graphql`: GraphQL delivery read performance on Postgres, against the limit
 * measured in the same run — the same results fetched with hand-written SQL through `pg`.
 *
 * Loads BENCH_ARTICLES (default 100,000) articles — title, slug, views, rich-content body, an
 * author reference to one of 1,000 authors, tags, a section — through the import, starts the real
 * HTTP server and measures each query with autocannon (16 connections, BENCH_SECONDS = 15 s, run
 * in its own process, as a client is); the queries are in graphql-queries.ts:
 *   Q1  a 20-item page, `title contains`, ordered by system.publishedAt DESC, author resolved, total
 *   Q2  one entry by id with its author
 *   Q3  a generic entryCollection page with inline fragments
 *   Q4  an author's reverse relation page (with total)
 * Targets: Q2 ≥ 3,000 req/s with p99 ≤ 20 ms; every query ≥ 50 % of its raw-SQL rate.
 *
 * Limits of an HTTP answer, measured in the same run with the same process count, connections
 * and load generator (graphql-worker.ts, role `bare`): "bare pg", a bare node:http server that
 * runs the query's hand-written SQL through one `pg` pool per process and writes the same JSON
 * as the API (checked byte for byte) — the limit of the path that executes; "bare mem", one that
 * answers the API's bytes from memory — the limit of the response cache. Every GraphQL line
 * prints its share of both. Targets: Q2 with the response cache off ≥ 60 % of bare pg, Q2 from
 * the response cache ≥ 50 % of bare mem, both with p99 < 10 ms. The API replicas run the default
 * configuration, its log level (info: a line per request, to /dev/null here) included; only the
 * rate limit is raised so that the load generator is not refused.
 *
 * The organization has three locales (en-US, the default, de-DE and fr-FR); the titles of
 * articles and the names of authors are localized and every entry has them in all three. The
 * "graphql de-DE" line runs each query with `locale: "de-DE"` on its root field (its filter and
 * order then compare the de-DE values), next to the same query without it. Target: within 10 %.
 *
 * Both sides use the machine alike: the API runs as BENCH_PROCESSES replica processes (default
 * one per core) sharing its port, and the raw SQL as as many client processes sharing the 16
 * connections (graphql-cluster.ts). One process is one event loop: held to one, either side stops
 * short of what Postgres and the cores could give (measured: raw Q3 from one process 5,492–6,192
 * req/s, from two 6,807–7,872).
 *
 * "GET persisted" and "GET 304" lines: what a CDN in front of Folio sends — the query as a
 * registered persisted document (`extensions.persistedQuery` by hash) with a publishable key in
 * the URL, answered from the response cache; and the same GET revalidated with If-None-Match
 * (304, no body). Target: neither slower than the POST through the response cache.
 *
 * "graphql" lines: servers with the response cache off (GRAPHQL_RESPONSE_CACHE=false), so every
 * request executes (the bench fails unless each response cost at least one statement; SQL/req is
 * printed). "graphql cached": the default servers, whose response cache answers the repeated
 * request after its second occurrence.
 *
 * The raw SQL runs twice: as unnamed statements (pg's default, parsed and planned at every
 * execution) and as named prepared statements. The service prepares its statements without a
 * user filter, so both ratios are printed.
 *
 * Each of a query's four lines is measured for BENCH_SECONDS in BENCH_ROUNDS (default 5) slices,
 * the four in turn, after a BENCH_WARMUP_SECONDS (default 3) run of each that is not measured:
 * this machine's speed drifts over minutes, and a drift then hits every line alike. Each line
 * also shows the CPU a request cost the API replicas (or raw clients) and a Postgres on this
 * machine; autocannon's own share, on the same cores, is not counted.
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). BENCH_KEEP=1 keeps the data
 * and BENCH_REUSE=1 reuses data kept by an earlier run (same BENCH_ARTICLES); BENCH_QUERIES=Q2,Q3
 * measures only those.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../shared/config.js';
import { ndjsonLines } from '../../shared/content/import/ndjson-lines.js';
import { runImport } from '../../shared/content/import/run-import.js';
import { randomBase62 } from '../../shared/ids.js';
import { createLogger } from '../../shared/logger.js';
import { closeServices, createServices } from '../../shared/services.js';
import { findOrganizationBySlug, insertOrganization } from '../../shared/tenancy/organization-repository.js';
import { insertSite } from '../../shared/tenancy/site-repository.js';
import { createToken } from '../../shared/tenancy/token-repository.js';
import { createRole } from '../../shared/people/membership-repository.js';
import { roleRulesSchema } from '../../shared/people/roles.js';
import { registerDocuments } from '../../shared/edge/persisted-document-repository.js';
import { createHash } from 'node:crypto';
import { cores, cpuDuring } from './cpu-time.js';
import { startApiReplicas, startBareServers, startRawClients } from './graphql-cluster.js';
import { GRAPHQL, type QueryName } from './graphql-queries.js';
import { autocannonLoad } from './load-generators.js';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const AUTHORS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
// Each measured run follows a shorter one of the same load, not measured, on both sides: the
// rates of a warmed-up server (compiled code, statement and parse caches) and of warm connections.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = 16;
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? cores());
// Each side's BENCH_SECONDS are measured in this many slices, the sides in turn (see `measure`).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// BENCH_QUERIES=none measures only the writes
const QUERIES = (process.env.BENCH_QUERIES?.split(',') ?? Object.keys(GRAPHQL)).filter((q): q is QueryName => q in GRAPHQL);
const SLUG = `bench-graphql-locales-${ARTICLES}`;
const LOCALE = 'de-DE';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
const config = loadConfig({
  DATABASE_URL: url,
  DATABASE_POOL_SIZE: '16',
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'silent',
  PLATFORM_ADMIN_TOKEN: randomBase62(40),
  SEED_DEMO: 'false',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '10000000',
});
const services = await createServices(config, createLogger('silent'));
const { db } = services;

async function load(orgId: string): Promise<void> {
  await insertSite(db, orgId, { id: 'web', name: 'Web' });
  const lines: unknown[] = [
    { type: 'locale', code: 'en-US' },
    { type: 'locale', code: 'de-DE' },
    { type: 'locale', code: 'fr-FR', fallback: 'de-DE' },
    { type: 'model', alias: 'author', titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true, localized: true }] },
    {
      type: 'model',
      alias: 'article',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true, localized: true },
        { alias: 'views', type: 'number' },
        { alias: 'body', type: 'richcontent' },
        { alias: 'author', type: 'reference', allowedModels: ['author'] },
        { alias: 'tags', type: 'tag', valueType: 'list' },
        { alias: 'section', type: 'section' },
      ],
    },
  ];
  for (let s = 0; s < 10; s++) lines.push({ type: 'section', id: `s${s}`, title: `Section ${s}` });
  for (let a = 0; a < AUTHORS; a++) {
    lines.push({ type: 'entry', id: `au${a}`, model: 'author', siteId: 'web', status: 'PUBLISHED', publishedAt: new Date(Date.UTC(2023, 0, 1) + a * 1000).toISOString(), fields: { name: `Author ${a}` }, locales: { 'de-DE': { name: `Autorin ${a}` }, 'fr-FR': { name: `Auteur ${a}` } } });
  }
  for (let i = 0; i < ARTICLES; i++) {
    lines.push({
      type: 'entry',
      id: `a${i}`,
      model: 'article',
      siteId: 'web',
      slug: `article-${i}`,
      status: 'PUBLISHED',
      publishedAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      fields: {
        title: `Article number ${i}: a headline of several words`,
        views: (i * 7919) % 100_000,
        body: { type: 'doc', content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: `Heading ${i}` }] }, { type: 'paragraph', content: [{ type: 'text', text: `Body of article ${i}. Two sentences here!` }] }] },
        author: `au${i % AUTHORS}`,
        tags: ['news', `t${i % 50}`],
        section: `s${i % 10}`,
      },
      // the same words as the default title where Q1 searches, so each locale matches as many
      locales: { 'de-DE': { title: `Artikel number ${i}: eine Überschrift aus mehreren Wörtern` }, 'fr-FR': { title: `Article number ${i} : un titre de plusieurs mots` } },
    });
  }
  const body = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  async function* chunks() {
    for (let i = 0; i < body.length; i += 65536) yield body.slice(i, i + 65536);
  }
  const t0 = performance.now();
  const report = await runImport(services, orgId, ndjsonLines(chunks()));
  if (report.failed > 0) throw new Error(`import failed: ${JSON.stringify(report.results.find((r) => !r.ok))}`);
  console.log(`loaded ${ARTICLES.toLocaleString('en')} articles and ${AUTHORS} authors through the import in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

let org = process.env.BENCH_REUSE === '1' ? await findOrganizationBySlug(db, SLUG) : null;
const reused = org !== null;
if (!org) {
  const old = await findOrganizationBySlug(db, SLUG);
  if (old) await db.query('DELETE FROM organizations WHERE id = $1', [old.id]);
  org = await insertOrganization(db, { name: 'GraphQL bench', slug: SLUG });
  await load(org.id);
}
// What autovacuum does soon after a bulk load (statistics, visibility map, dead rows gone): the
// queries are measured in that settled state, not while it runs. Also on reused data, which
// other benchmarks' loads and deletes in the same tables may have left unsettled (dead index
// entries made planning the raw statements ~25 ms each).
await db.query('VACUUM ANALYZE entries');
await db.query('VACUUM ANALYZE entry_edges');
const orgId = org.id;
const token = (await createToken(db, orgId, { name: 'bench', scopes: ['delivery'] })).token;
const publishable = (await createToken(db, orgId, { name: 'bench page', scopes: ['delivery'], publishable: true })).token;
// The permission check's cost: a preview token, and a token acting under a custom role that reads
// every model but one field of articles (a view of the schema; Q1–Q4 do not select the field).
const preview = (await createToken(db, orgId, { name: 'bench preview', scopes: ['preview'] })).token;
const role = await db.transaction((tx) => createRole(tx, orgId, { name: `bench reader ${randomBase62(6)}`, rules: roleRulesSchema.parse({ models: { '*': { read: true }, article: { read: true, hiddenFields: ['body'] } } }) }));
const roleToken = (await createToken(db, orgId, { name: 'bench role', scopes: [], role: `custom:${role.id}` })).token;
// The same check on a management write: a manage token against one acting under a custom role
// that may edit every model but not one field of articles (which the write leaves alone).
const manageToken = (await createToken(db, orgId, { name: 'bench manage', scopes: ['manage'] })).token;
const editorRole = await db.transaction((tx) =>
  createRole(tx, orgId, {
    name: `bench editor ${randomBase62(6)}`,
    rules: roleRulesSchema.parse({ models: { '*': { read: true, create: true, update: true, publish: true }, article: { read: true, create: true, update: true, publish: true, hiddenFields: ['body'] } } }),
  }),
);
const editorToken = (await createToken(db, orgId, { name: 'bench editor', scopes: [], role: `custom:${editorRole.id}` })).token;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
await registerDocuments(db, orgId, Object.values(GRAPHQL).map((q) => ({ id: sha256(q), sha256: sha256(q), document: q, name: null })));
const api = await startApiReplicas(PROCESSES, url);
const raw = await startRawClients(PROCESSES, url, CONNECTIONS);
const bare = await startBareServers(PROCESSES, url);

interface Result {
  rps: number;
  p50: number;
  p99: number;
  /** CPU per request, µs: the API replicas (or raw-SQL clients) and a local Postgres. */
  cpu: { process: number; postgres?: number };
  /** SQL statements per request (GraphQL runs). */
  statements?: number;
}

/** What one slice of a run measured. */
interface Slice {
  seconds: number;
  responses: number;
  /** Every request's latency (raw SQL), or the slice's percentiles (autocannon). */
  latencies?: number[];
  percentiles?: Array<{ q: number; ms: number }>;
  processSeconds: number;
  postgresSeconds?: number;
  statements?: number;
}

/** One of the four lines of a query: a load of `seconds`. */
type Side = (seconds: number) => Promise<Slice>;

/**
 * `cached`: against the servers with the response cache, which answer repeated requests from
 * memory; otherwise against those without it, where every request executes — checked: each
 * response cost at least one SQL statement. The requests are identical either way, so
 * autocannon sends one prepared buffer (rewriting each request's body, `-I`, cost it ~50 µs of
 * CPU per request more on the same cores, measured).
 */
async function graphqlSide(query: string, cached: boolean, bearer = token): Promise<Side> {
  const endpoint = `${cached ? api.cachingUrl : api.executingUrl}/graphql`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
  const check = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query }) });
  const body = (await check.json()) as { errors?: unknown };
  if (check.status !== 200 || body.errors) throw new Error(`query failed: ${JSON.stringify(body)}`);
  return async (seconds) => {
    const statementsBefore = await api.statements();
    // autocannon runs in its own process: its CPU is not counted here
    const spent = await cpuDuring(
      () => autocannonLoad(endpoint, { connections: CONNECTIONS, seconds, workers: 1, method: 'POST', headers, body: JSON.stringify({ query }) }),
      { processes: api.pids },
    );
    const r = spent.result;
    if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx responses`);
    const statements = (await api.statements()) - statementsBefore;
    if (!cached && statements < r.responses) throw new Error(`${r.responses} responses but only ${statements} SQL statements: not every request executed`);
    return { seconds, responses: r.responses, percentiles: r.percentiles, processSeconds: spent.processSeconds, postgresSeconds: spent.postgresSeconds, statements };
  };
}

/**
 * The query as a CDN asks for it: a GET naming the registered document by hash, a publishable
 * key in the URL, against the caching servers; `revalidate` sends If-None-Match with the current
 * ETag, and every answer must be a 304.
 */
async function getSide(query: string, revalidate: boolean): Promise<Side> {
  const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
  const endpoint = `${api.cachingUrl}/graphql?extensions=${encodeURIComponent(extensions)}&access_token=${publishable}`;
  const check = await fetch(endpoint);
  const body = (await check.json()) as { errors?: unknown };
  if (check.status !== 200 || body.errors) throw new Error(`GET failed: ${JSON.stringify(body)}`);
  const etag = check.headers.get('etag');
  if (!etag) throw new Error('GET answered without an ETag');
  const headers: Record<string, string> = revalidate ? { 'if-none-match': etag } : {};
  return async (seconds) => {
    const spent = await cpuDuring(() => autocannonLoad(endpoint, { connections: CONNECTIONS, seconds, workers: 1, headers }), { processes: api.pids });
    const r = spent.result;
    if (revalidate ? r.non2xx !== r.responses : r.non2xx > 0) throw new Error(`${r.non2xx} of ${r.responses} responses not ${revalidate ? '304' : '2xx'}`);
    return { seconds, responses: r.responses, percentiles: r.percentiles, processSeconds: spent.processSeconds, postgresSeconds: spent.postgresSeconds };
  };
}

/**
 * A limit of the API's answers to `query`: the bare server (`pg` or `memory`, graphql-worker.ts)
 * asked exactly as `graphqlSide` asks the API. Both are first given the API's cached answer; the
 * `pg` one must write the same JSON by itself (checked here, byte for byte).
 */
async function bareSide(q: QueryName, kind: 'pg' | 'memory'): Promise<Side> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const body = JSON.stringify({ query: GRAPHQL[q] });
  const reference = await (await fetch(`${api.cachingUrl}/graphql`, { method: 'POST', headers, body })).text();
  await bare.setAnswer(q, reference, orgId);
  const endpoint = `${kind === 'pg' ? bare.pgUrl : bare.memoryUrl}/${q}`;
  const check = await (await fetch(endpoint, { method: 'POST', headers, body })).text();
  if (check !== reference) throw new Error(`the bare ${kind} server answers ${q} otherwise than the API:\n${check}\n${reference}`);
  return async (seconds) => {
    const spent = await cpuDuring(() => autocannonLoad(endpoint, { connections: CONNECTIONS, seconds, workers: 1, method: 'POST', headers, body }), { processes: bare.pids });
    const r = spent.result;
    if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx responses`);
    return { seconds, responses: r.responses, percentiles: r.percentiles, processSeconds: spent.processSeconds, postgresSeconds: spent.postgresSeconds };
  };
}

/** A management write as an editor's client sends it: PATCH one field of one article (each side its own). */
async function writeSide(bearer: string, entryId: string): Promise<Side> {
  const endpoint = `${api.executingUrl}/management/v1/entries/${entryId}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
  const body = JSON.stringify({ fields: { views: 7 } });
  const check = await fetch(endpoint, { method: 'PATCH', headers, body });
  if (check.status !== 200) throw new Error(`write failed: ${check.status} ${await check.text()}`);
  return async (seconds) => {
    const spent = await cpuDuring(() => autocannonLoad(endpoint, { connections: CONNECTIONS, seconds, workers: 1, method: 'PATCH', headers, body }), { processes: api.pids });
    const r = spent.result;
    if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx responses to the write`);
    return { seconds, responses: r.responses, percentiles: r.percentiles, processSeconds: spent.processSeconds, postgresSeconds: spent.postgresSeconds };
  };
}

function sqlSide(query: QueryName, prepared: boolean): Side {
  return async (seconds) => {
    const spent = await cpuDuring(() => raw.run(query, prepared, seconds, orgId), { processes: raw.pids });
    return { seconds, responses: spent.result.length, latencies: spent.result, processSeconds: spent.processSeconds, postgresSeconds: spent.postgresSeconds };
  };
}

/**
 * Each side warmed up, then ROUNDS slices of each in turn: the machine's speed drifts over
 * minutes (the same raw statement measured 4,682 and 7,227 req/s a minute apart), and
 * interleaving lets a drift hit every side alike. Latency percentiles: raw SQL over all its
 * requests; autocannon reports them per slice, merged by `mergedPercentile`.
 */
async function measure(sides: Side[]): Promise<Result[]> {
  if (WARMUP_SECONDS > 0) for (const side of sides) await side(WARMUP_SECONDS);
  const slices: Slice[][] = sides.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, side] of sides.entries()) slices[i].push(await side(SECONDS / ROUNDS));
  }
  return slices.map(combine);
}

/**
 * The latency at `q` over the requests of all slices, from each slice's percentile table: the
 * least latency that, by every table, at least a fraction `q` of all requests did not exceed.
 * Between a table's points a slice counts only the lower percentile, so the answer errs high.
 */
function mergedPercentile(slices: Slice[], q: number): number {
  const total = slices.reduce((t, s) => t + s.responses, 0);
  const candidates = [...new Set(slices.flatMap((s) => s.percentiles!.map((p) => p.ms)))].sort((a, b) => a - b);
  const within = (s: Slice, ms: number) => s.percentiles!.reduce((f, p) => (p.ms <= ms ? Math.max(f, p.q) : f), 0);
  for (const ms of candidates) if (slices.reduce((n, s) => n + s.responses * within(s, ms), 0) >= q * total) return ms;
  return candidates[candidates.length - 1];
}

function combine(slices: Slice[]): Result {
  const sum = (f: (s: Slice) => number | undefined) => slices.reduce((t, s) => t + (f(s) ?? 0), 0);
  const responses = sum((s) => s.responses);
  const perRequest = (seconds: number) => (seconds / responses) * 1e6;
  let p50: number;
  let p99: number;
  if (slices.every((s) => s.latencies)) {
    const all = slices.flatMap((s) => s.latencies!).sort((a, b) => a - b);
    const at = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))];
    [p50, p99] = [at(0.5), at(0.99)];
  } else {
    [p50, p99] = [mergedPercentile(slices, 0.5), mergedPercentile(slices, 0.99)];
  }
  const postgres = slices.every((s) => s.postgresSeconds !== undefined) ? perRequest(sum((s) => s.postgresSeconds)) : undefined;
  const statements = slices.every((s) => s.statements !== undefined) ? sum((s) => s.statements) / responses : undefined;
  return { rps: responses / sum((s) => s.seconds), p50, p99, cpu: { process: perRequest(sum((s) => s.processSeconds)), postgres }, statements };
}

const fmt = (r: Result) =>
  `${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  `  CPU/req ${Math.round(r.cpu.process).toString().padStart(4)} µs app${r.cpu.postgres === undefined ? '' : ` + ${Math.round(r.cpu.postgres).toString().padStart(4)} µs Postgres`}` +
  (r.statements === undefined ? '' : `  ${r.statements.toFixed(2)} SQL/req`);

try {
  console.log(
    `bench:graphql — ${ARTICLES.toLocaleString('en')} articles${reused ? ' (reused)' : ''}, ${CONNECTIONS} connections, ${SECONDS} s per run in ${ROUNDS} slices taken in turn, Postgres; ` +
      `${PROCESSES} API replica process(es) and ${PROCESSES} raw-SQL client process(es) (BENCH_PROCESSES)`,
  );
  for (const q of QUERIES) {
    const [g, localized, cached, get, notModified, s, sp, barePg, bareMemory, asPreview, asRole] = await measure([
      await graphqlSide(GRAPHQL[q], false),
      await graphqlSide(GRAPHQL[q].replace('(', `(locale: "${LOCALE}", `), false),
      await graphqlSide(GRAPHQL[q], true),
      await getSide(GRAPHQL[q], false),
      await getSide(GRAPHQL[q], true),
      sqlSide(q, false),
      sqlSide(q, true),
      await bareSide(q, 'pg'),
      await bareSide(q, 'memory'),
      await graphqlSide(GRAPHQL[q], false, preview),
      await graphqlSide(GRAPHQL[q], false, roleToken),
    ]);
    const pct = (r: Result, of: Result) => `${((r.rps / of.rps) * 100).toFixed(0).padStart(4)} %`;
    const limits = (r: Result) => `  [${pct(r, barePg)} of bare pg, ${pct(r, bareMemory)} of bare memory]`;
    console.log(`${q}  graphql         ${fmt(g)}  ${pct(g, s)} of raw, ${pct(g, sp)} of prepared raw${limits(g)}`);
    console.log(`${q}  graphql ${LOCALE}   ${fmt(localized)}  ${pct(localized, g)} of graphql without a locale${limits(localized)}`);
    console.log(`${q}  graphql cached  ${fmt(cached)}  ${pct(cached, s)} of raw, ${pct(cached, sp)} of prepared raw${limits(cached)}`);
    console.log(`${q}  GET persisted   ${fmt(get)}  ${pct(get, cached)} of the cached POST${limits(get)}`);
    console.log(`${q}  GET 304         ${fmt(notModified)}  ${pct(notModified, cached)} of the cached POST${limits(notModified)}`);
    console.log(`${q}  raw SQL (pg)    ${fmt(s)}`);
    console.log(`${q}  raw, prepared   ${fmt(sp)}`);
    console.log(`${q}  limit: bare pg  ${fmt(barePg)}`);
    console.log(`${q}  limit: bare mem ${fmt(bareMemory)}`);
    console.log(`${q}  preview token   ${fmt(asPreview)}  (cache off)`);
    console.log(`${q}  role token      ${fmt(asRole)}  ${pct(asRole, asPreview)} of the preview token (the permission check's cost)`);
  }
  if (process.env.BENCH_WRITES !== '0') {
    const [asManage, asEditor] = await measure([await writeSide(manageToken, 'a41'), await writeSide(editorToken, 'a43')]);
    const share = ((asEditor.rps / asManage.rps) * 100).toFixed(0).padStart(4);
    console.log(`W   write, manage  ${fmt(asManage)}  (PATCH /management/v1/entries/:id, one field)`);
    console.log(`W   write, role    ${fmt(asEditor)}  ${share} % of the manage token (the permission check's cost)`);
  }
  console.log(
    `targets: Q2 ≥ 3,000 req/s with p99 ≤ 20 ms; every query ≥ 50 % of its raw-SQL rate; GET persisted and GET 304 ≥ 100 % of the cached POST; graphql ${LOCALE} ≥ 90 % of graphql; ` +
      'Q5 (search) ≥ 80 % of raw; Q2 graphql ≥ 60 % of bare pg and Q2 graphql cached ≥ 50 % of bare memory, both with p99 < 10 ms; role token ≥ 95 % of the preview token, and the write with a role ≥ 95 % of the manage token',
  );
} finally {
  await Promise.all([api.close(), raw.close(), bare.close()]);
  if (process.env.BENCH_KEEP !== '1') await db.query('DELETE FROM organizations WHERE id = $1', [orgId]);
  await closeServices(services);
  await rm(dataDir, { recursive: true, force: true });
}
