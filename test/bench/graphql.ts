/**
 * `npm run bench:graphql`: GraphQL delivery read performance on Postgres, against the limit
 * measured in the same run — the same results fetched with hand-written SQL through `pg`.
 *
 * Loads BENCH_ARTICLES (default 100,000) articles — title, slug, views, rich-content body, an
 * author reference to one of 1,000 authors, tags, a section — through the import, starts the real
 * HTTP server in this process and measures each query with autocannon (16 connections,
 * BENCH_SECONDS = 15 s, run in its own process, as a client is):
 *   Q1  a 20-item page, `title contains`, ordered by system.publishedAt DESC, author resolved, total
 *   Q2  one entry by id with its author
 *   Q3  a generic entryCollection page with inline fragments
 *   Q4  an author's reverse relation page (with total)
 * Targets: Q2 ≥ 3,000 req/s with p99 ≤ 20 ms; every query ≥ 50 % of its raw-SQL rate.
 *
 * The raw SQL runs twice: as unnamed statements (pg's default, parsed and planned at every
 * execution) and as named prepared statements. The service prepares its statements without a
 * user filter, so both ratios are printed.
 *
 * Every measured run follows a BENCH_WARMUP_SECONDS (default 3) run of the same load that is not
 * measured, for GraphQL and raw SQL alike. Each line also shows the CPU a request cost this
 * process (the server; for raw SQL, the pg client) and a Postgres on this machine; autocannon's
 * own share, on the same cores, is not counted.
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). BENCH_KEEP=1 keeps the data
 * and BENCH_REUSE=1 reuses data kept by an earlier run (same BENCH_ARTICLES).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startHttpServer } from '../../api/server.js';
import { loadConfig } from '../../shared/config.js';
import { ndjsonLines } from '../../shared/content/import/ndjson-lines.js';
import { runImport } from '../../shared/content/import/run-import.js';
import { randomBase62 } from '../../shared/ids.js';
import { createLogger } from '../../shared/logger.js';
import { closeServices, createServices } from '../../shared/services.js';
import { findOrganizationBySlug, insertOrganization } from '../../shared/tenancy/organizations.js';
import { insertSite } from '../../shared/tenancy/sites.js';
import { createToken } from '../../shared/tenancy/tokens.js';
import { closeServer } from '../../shared/shutdown.js';
import { cpuDuring } from './cpu-time.js';
import { autocannonLoad } from './load-generators.js';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const AUTHORS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
// Each measured run follows a shorter one of the same load, not measured, on both sides: the
// rates of a warmed-up server (compiled code, statement and parse caches) and of warm connections.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = 16;
const SLUG = `bench-graphql-${ARTICLES}`;

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
    { type: 'model', alias: 'author', titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }] },
    {
      type: 'model',
      alias: 'article',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
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
    lines.push({ type: 'entry', id: `au${a}`, model: 'author', siteId: 'web', status: 'PUBLISHED', publishedAt: new Date(Date.UTC(2023, 0, 1) + a * 1000).toISOString(), fields: { name: `Author ${a}` } });
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
const { server, url: baseUrl } = await startHttpServer(services, { port: 0, host: '127.0.0.1' });
const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });

// --- the queries, as GraphQL and as hand-written SQL returning the same data --------------------

const TERM = 'number 12';
const ONE = 'a4242';
const AUTHOR = 'au7';

const GRAPHQL: Record<string, string> = {
  Q1: `{ articleCollection(limit: 20, where: {title: {contains: "${TERM}"}}, order: {system: {publishedAt: DESC}}) { total items { id title views author { id name } } } }`,
  Q2: `{ article(id: "${ONE}") { id title views author { id name } } }`,
  Q3: `{ entryCollection(limit: 20) { items { id system { modelAlias publishedAt } ... on Article { title views } ... on Author { name } } } }`,
  Q4: `{ author(id: "${AUTHOR}") { id name relations { articleCollection(limit: 20) { total items { id title } } } } }`,
};

/** Runs one hand-written statement: unnamed (pg's default) or as a named prepared statement. */
type Run = (text: string, values: unknown[]) => Promise<pg.QueryResult>;

const SQL: Record<string, (c: Run) => Promise<unknown>> = {
  async Q1(c) {
    const where = `org_id = $1 AND in_delivery AND model_alias = 'article' AND title ILIKE $2`;
    // Matches first (trigram index), then the top 20: the best plan for a substring search.
    const items = await c(
      `WITH m AS MATERIALIZED (SELECT id, title, published_at, fields->'views' AS views, fields->>'author' AS author FROM entries WHERE ${where})
       SELECT id, title, views, author FROM m ORDER BY published_at DESC NULLS LAST, id LIMIT 20`,
      [orgId, `%${TERM}%`],
    );
    const total = await c(`SELECT count(*) FROM entries WHERE ${where}`, [orgId, `%${TERM}%`]);
    const authors = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND in_delivery AND id = ANY($2)`, [orgId, items.rows.map((r) => r.author)]);
    return [items.rows, total.rows, authors.rows];
  },
  async Q2(c) {
    const a = await c(`SELECT id, title, fields->'views' AS views, fields->>'author' AS author FROM entries WHERE org_id = $1 AND id = $2 AND in_delivery`, [orgId, ONE]);
    const au = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND in_delivery AND id = ANY($2)`, [orgId, [a.rows[0].author]]);
    return [a.rows, au.rows];
  },
  async Q3(c) {
    // only the values the fragments show, as for Q1, Q2 and Q4 (not the whole `fields` document)
    const sql = `SELECT id, model_alias, published_at, title, fields->'views' AS views, fields->>'name' AS name
      FROM entries WHERE org_id = $1 AND in_delivery ORDER BY published_at DESC NULLS LAST, id LIMIT 20`;
    return (await c(sql, [orgId])).rows;
  },
  async Q4(c) {
    const author = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND id = $2 AND in_delivery`, [orgId, AUTHOR]);
    const scope = `org_id = $1 AND in_delivery AND model_alias = 'article' AND row_id IN (SELECT row_id FROM entry_edges WHERE org_id = $1 AND kind = 'reference' AND target_id = $2)`;
    const items = await c(`SELECT id, title FROM entries WHERE ${scope} ORDER BY published_at DESC NULLS LAST, id LIMIT 20`, [orgId, AUTHOR]);
    const total = await c(`SELECT count(*) FROM entries WHERE ${scope}`, [orgId, AUTHOR]);
    return [author.rows, items.rows, total.rows];
  },
};

interface Result {
  rps: number;
  p50: number;
  p99: number;
  /** CPU per request, µs: this process (the server, or the raw-SQL client) and a local Postgres. */
  cpu: { process: number; postgres?: number };
}

/** A phase's CPU (`cpuDuring`) per request, in µs. */
const perRequest = (spent: { processSeconds: number; postgresSeconds?: number }, requests: number): Result['cpu'] => ({
  process: (spent.processSeconds / requests) * 1e6,
  postgres: spent.postgresSeconds === undefined ? undefined : (spent.postgresSeconds / requests) * 1e6,
});

/**
 * `unique`: every request carries a different (undeclared, ignored) variable, so the response
 * cache never answers and each request executes; otherwise identical requests may be served
 * from the response cache (keyed by the org's content version).
 */
async function graphqlRun(query: string, unique: boolean): Promise<Result> {
  const check = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query }) });
  const body = (await check.json()) as { errors?: unknown };
  if (check.status !== 200 || body.errors) throw new Error(`query failed: ${JSON.stringify(body)}`);
  const load = (seconds: number) =>
    autocannonLoad(`${baseUrl}/graphql`, {
      connections: CONNECTIONS,
      seconds,
      workers: 1,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      // autocannon replaces [<id>] with a fresh id per request
      body: JSON.stringify(unique ? { query, variables: { nonce: '[<id>]' } } : { query }),
      idReplacement: unique,
    });
  if (WARMUP_SECONDS > 0) await load(WARMUP_SECONDS);
  // autocannon runs in its own process: its CPU is not counted here
  const spent = await cpuDuring(() => load(SECONDS));
  const r = spent.result;
  if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx responses`);
  const requests = r.requestsPerSecond * SECONDS;
  return { rps: r.requestsPerSecond, p50: r.p50Ms, p99: r.p99Ms, cpu: perRequest(spent, requests) };
}

const statementNames = new Map<string, string>();
const nameOf = (text: string) => statementNames.get(text) ?? statementNames.set(text, `bench_${statementNames.size}`).get(text)!;

/** `warmUp`: first the same load for WARMUP_SECONDS, not measured. */
async function sqlRun(run: (c: Run) => Promise<unknown>, prepared: boolean, seconds = SECONDS, warmUp = true): Promise<Result> {
  if (warmUp && WARMUP_SECONDS > 0) await sqlRun(run, prepared, WARMUP_SECONDS, false);
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const connection = async () => {
    const client = await pool.connect();
    const c: Run = prepared ? (text, values) => client.query({ name: nameOf(text), text, values }) : (text, values) => client.query(text, values);
    try {
      while (performance.now() < end) {
        const t = performance.now();
        await run(c);
        latencies.push(performance.now() - t);
      }
    } finally {
      client.release();
    }
  };
  const spent = await cpuDuring(() => Promise.all(Array.from({ length: CONNECTIONS }, connection)));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), cpu: perRequest(spent, latencies.length) };
}

const fmt = (r: Result) =>
  `${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  `  CPU/req ${Math.round(r.cpu.process).toString().padStart(4)} µs here${r.cpu.postgres === undefined ? '' : ` + ${Math.round(r.cpu.postgres).toString().padStart(4)} µs Postgres`}`;

try {
  console.log(`bench:graphql — ${ARTICLES.toLocaleString('en')} articles${reused ? ' (reused)' : ''}, ${CONNECTIONS} connections, ${SECONDS} s per run, Postgres`);
  for (const q of Object.keys(GRAPHQL)) {
    const g = await graphqlRun(GRAPHQL[q], true);
    const cached = await graphqlRun(GRAPHQL[q], false);
    const s = await sqlRun(SQL[q], false);
    const sp = await sqlRun(SQL[q], true);
    const pct = (r: Result, of: Result) => `${((r.rps / of.rps) * 100).toFixed(0).padStart(4)} %`;
    console.log(`${q}  graphql         ${fmt(g)}  ${pct(g, s)} of raw, ${pct(g, sp)} of prepared raw`);
    console.log(`${q}  graphql cached  ${fmt(cached)}  ${pct(cached, s)} of raw, ${pct(cached, sp)} of prepared raw`);
    console.log(`${q}  raw SQL (pg)    ${fmt(s)}`);
    console.log(`${q}  raw, prepared   ${fmt(sp)}`);
  }
  console.log('targets: Q2 ≥ 3,000 req/s with p99 ≤ 20 ms; every query ≥ 50 % of its raw-SQL rate');
} finally {
  await pool.end();
  await closeServer(server, 1000);
  if (process.env.BENCH_KEEP !== '1') await db.query('DELETE FROM organizations WHERE id = $1', [orgId]);
  await closeServices(services);
  await rm(dataDir, { recursive: true, force: true });
}
