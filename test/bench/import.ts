/**
 * `npm run bench:import`: `POST /management/v1/import` throughput on Postgres (the real app on
 * an ephemeral port, the NDJSON body streamed over HTTP), against the limit measured in the same
 * run — plain batched multi-row INSERTs of the very rows the import wrote (entries and edges),
 * through `pg`, with the same batch size, into the same tables and indexes.
 * It also prints what an entry cost in CPU (the app, and Postgres when it runs on this machine)
 * and the rate that allows on this machine's cores; then exports what it imported (`GET
 * /management/v1/export` over HTTP) next to plain keyset SELECTs of the same rows, with the
 * process's peak RSS during the export.
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_ENTRIES (default 100000).
 * BENCH_LOCALES=3 gives the organization three locales (en-US, the default, de-DE and fr-FR) and
 * every article a localized title and lead in all three (the other two in its `locales`).
 */
import pg from 'pg';
import { ENTRY_BATCH_SIZE } from '../../shared/content/import/run-import.js';
import { createLocale } from '../../shared/content/locales.js';
import { putModel } from '../../shared/content/models.js';
import { randomBase62 } from '../../shared/ids.js';
import { insertOrganization } from '../../shared/tenancy/organization-repository.js';
import { insertSite } from '../../shared/tenancy/site-repository.js';
import { startTestApp } from '../support/harness.js';
import { cores, cpuDuring, cpuLine } from './cpu-time.js';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const url = process.env.DATABASE_URL;
const total = Number(process.env.BENCH_ENTRIES ?? 100_000);
const people = Math.max(1, Math.round(total / 100));
const LOCALES = ['en-US', 'de-DE', 'fr-FR'].slice(0, Number(process.env.BENCH_LOCALES ?? 0));

const app = await startTestApp({ workers: false });
const { db } = app.services;
const deps = app.services;

const benchOrg = await app.createOrg('bench');
const org = { id: benchOrg.orgId };
const limitOrg = await insertOrganization(db, { name: 'bench limit', slug: `bench-${randomBase62(10).toLowerCase()}` });
const orgIds = [org.id, limitOrg.id];
try {
  for (const o of orgIds) await insertSite(db, o, { id: 'web', name: 'Web' });
  for (const code of LOCALES) await createLocale(deps, org.id, { code });
  await putModel(deps, org.id, 'person', { titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }] });
  await putModel(deps, org.id, 'article', {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text', required: true, localized: LOCALES.length > 0 },
      { alias: 'lead', type: 'richtext', localized: LOCALES.length > 0 },
      { alias: 'views', type: 'number' },
      { alias: 'at', type: 'datetime' },
      { alias: 'tags', type: 'tag', valueType: 'list' },
      { alias: 'author', type: 'reference', allowedModels: ['person'] },
      { alias: 'related', type: 'reference', valueType: 'list', allowedModels: ['article'] },
    ],
  });

  // The file: people first, then articles, each referencing a person and most an earlier article.
  // Built in a function, and the bench's own big arrays let go of before the export is timed, so
  // that the collector does not walk the bench's data while it measures the app's.
  const ndjson = (): Buffer => {
    const lines: string[] = [];
    for (let i = 0; i < people; i++) lines.push(JSON.stringify({ type: 'entry', id: `p${i}`, model: 'person', siteId: 'web', status: 'PUBLISHED', fields: { name: `Person ${i}` } }));
    for (let i = 0; i < total - people; i++) {
      const related = i > 0 ? [`a${Math.floor(i / 2)}`] : [];
      lines.push(
        JSON.stringify({
          type: 'entry',
          id: `a${i}`,
          model: 'article',
          siteId: 'web',
          status: i % 4 === 0 ? 'DRAFT' : 'PUBLISHED',
          publishedAt: i % 4 === 0 ? undefined : new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
          fields: {
            title: `Article number ${i}: a headline of several words.`,
            lead: `<p>This is the lead of article ${i}. It has two sentences!</p>`,
            views: i * 7,
            at: '2024-05-01T12:00:00Z',
            tags: ['news', `t${i % 50}`],
            author: `p${i % people}`,
            related,
          },
          locales: LOCALES.length > 1 ? Object.fromEntries(LOCALES.slice(1).map((code) => [code, { title: `${code}: Artikel ${i}, eine Überschrift aus mehreren Wörtern.`, lead: `<p>${code}: Der Vorspann von Artikel ${i}. Zwei Sätze!</p>` }])) : undefined,
        }),
      );
    }
    return Buffer.from(lines.join('\n') + '\n');
  };
  let bytes: Buffer | null = ndjson();
  const localeNote = LOCALES.length > 0 ? `, ${LOCALES.length} locales (title and lead in each)` : '';
  console.log(`bench:import — ${total} entries (${people} people, ${total - people} articles with references${localeNote}), ${(bytes.length / 1e6).toFixed(1)} MB NDJSON, batch ${ENTRY_BATCH_SIZE}, Postgres`);

  // Streamed in 64 KB chunks over HTTP, as the CLI sends a file.
  const postImport = async () => {
    const file = bytes!;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < file.length; i += 65536) controller.enqueue(file.subarray(i, i + 65536));
        controller.close();
      },
    });
    const res = await fetch(`${app.baseUrl}/management/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${benchOrg.manageToken}`, 'content-type': 'application/x-ndjson' },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    return { res, envelope: (await res.json()) as { result: { lines: number; failed: number; results: { ok: boolean }[] } } };
  };
  const t0 = performance.now();
  // CPU of this process (app and client) and of Postgres, when it runs on this machine
  const importCpu = await cpuDuring(postImport);
  const importMs = performance.now() - t0;
  const { res, envelope } = importCpu.result;
  const report = envelope.result;
  if (res.status !== 200 || report.failed > 0) throw new Error(`import failed: ${res.status} ${JSON.stringify(report?.results.find((r) => !r.ok))}`);

  // The limit: the same rows, read back, inserted with plain batched INSERTs through pg.
  const measureLimit = async () => {
    const entryRows = (await db.query<Record<string, unknown>>('SELECT * FROM entries WHERE org_id = $1 ORDER BY row_id', [org.id])).rows;
    const edgeRows = (await db.query<Record<string, unknown>>('SELECT * FROM entry_edges WHERE org_id = $1 ORDER BY row_id', [org.id])).rows;
    // the database numbers rows and derives `search_titles` itself, for these inserts as for the import's
    const entryCols = Object.keys(entryRows[0]).filter((c) => c !== 'row_id' && c !== 'search_titles');
    const edgesByRow = new Map<unknown, Record<string, unknown>[]>();
    for (const e of edgeRows) edgesByRow.set(e.row_id, [...(edgesByRow.get(e.row_id) ?? []), e]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const values = (n: number, width: number, offset = 0) =>
      Array.from({ length: n }, (_, r) => `(${Array.from({ length: width }, (_, c) => `$${offset + r * width + c + 1}`).join(', ')})`).join(', ');
    const t1 = performance.now();
    const limitCpu = await cpuDuring(async () => {
      for (let i = 0; i < entryRows.length; i += ENTRY_BATCH_SIZE) {
        const batch = entryRows.slice(i, i + ENTRY_BATCH_SIZE);
        await client.query('BEGIN');
        const params = batch.flatMap((r) => entryCols.map((c) => (c === 'org_id' ? limitOrg.id : ['attrs', 'fields', 'locales', 'metrics'].includes(c) && r[c] !== null ? JSON.stringify(r[c]) : r[c])));
        const inserted = await client.query<{ row_id: string }>(`INSERT INTO entries (${entryCols.join(', ')}) VALUES ${values(batch.length, entryCols.length)} RETURNING row_id`, params);
        const edges = batch.flatMap((r, k) => (edgesByRow.get(r.row_id) ?? []).map((e) => [inserted.rows[k].row_id, limitOrg.id, e.source_id, e.field, e.kind, e.target_id, e.position]));
        if (edges.length > 0) {
          await client.query(`INSERT INTO entry_edges (row_id, org_id, source_id, field, kind, target_id, position) VALUES ${values(edges.length, 7)}`, edges.flat());
        }
        await client.query('COMMIT');
      }
    });
    const limitMs = performance.now() - t1;
    await client.end();
    return { limitCpu, limitMs, rows: entryRows.length, edges: edgeRows.length };
  };
  const { limitCpu, limitMs, rows: limitRows, edges: importedEdges } = await measureLimit();

  // A re-run of the same file (the README promises it works): every line names a known id, so
  // every entry is replaced. Measured against the first run of the same file.
  const tRerun = performance.now();
  const rerun = await postImport();
  const rerunMs = performance.now() - tRerun;
  if (rerun.res.status !== 200 || rerun.envelope.result.failed > 0) throw new Error(`re-run failed: ${rerun.res.status}`);
  bytes = null;

  // The export of what was imported, streamed over HTTP (as the CLI reads it), against the limit:
  // the same entry rows read with plain keyset-paged SELECTs through pg. Peak RSS sampled as it runs.
  // Both after the statistics autovacuum would gather after such a load (stale ones right after
  // the bulk writes make the planner sort the org's rows for every page instead of walking the index).
  await db.query('VACUUM ANALYZE entries');
  await db.query('VACUUM ANALYZE entry_edges');
  // collected first (the script runs with --expose-gc), so that what the import left behind is
  // not counted: the peaks then show what the export itself holds, for 100k entries as for 300k
  (globalThis as { gc?: () => void }).gc?.();
  const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
  let rssPeak = rssBefore;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 20);
  const tExport = performance.now();
  const exportRes = await fetch(`${app.baseUrl}/management/v1/export`, { headers: { authorization: `Bearer ${benchOrg.manageToken}` } });
  let exportLines = 0;
  let exportBytes = 0;
  for await (const chunk of exportRes.body as unknown as AsyncIterable<Uint8Array>) {
    exportBytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) exportLines++;
  }
  const exportMs = performance.now() - tExport;
  clearInterval(sampler);
  if (exportRes.status !== 200 || exportLines < total) throw new Error(`export failed: ${exportRes.status}, ${exportLines} lines`);
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  const tRead = performance.now();
  let readRows = 0;
  for (let after = 0; ; ) {
    const { rows } = await reader.query<{ seq: string }>('SELECT * FROM entries WHERE org_id = $1 AND in_preview AND seq > $2 ORDER BY seq LIMIT 1000', [org.id, after]);
    readRows += rows.length;
    if (rows.length < 1000) break;
    after = Number(rows[rows.length - 1].seq);
  }
  const readMs = performance.now() - tRead;
  await reader.end();

  const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
  const importRate = rate(total, importMs);
  const limitRate = rate(limitRows, limitMs);
  console.log(`POST /import:        ${importRate.toLocaleString('en')} entries/s (${(importMs / 1000).toFixed(2)} s; ${importedEdges} edges, validation, metrics, reference checks)`);
  console.log(`plain INSERT limit:  ${limitRate.toLocaleString('en')} entries/s (${(limitMs / 1000).toFixed(2)} s; same ${limitRows} rows + edges, multi-row INSERT via pg)`);
  console.log(`import / limit:      ${((importRate / limitRate) * 100).toFixed(0)} %  (targets: ≥ 20,000 entries/s and ≥ 50 %)`);
  console.log(`re-run, same ids:    ${rate(total, rerunMs).toLocaleString('en')} entries/s (${(rerunMs / 1000).toFixed(2)} s; every entry replaced) — ${(rerunMs / importMs).toFixed(1)}× the first run (target ≤ 2×)`);
  console.log(`GET /export:         ${rate(total, exportMs).toLocaleString('en')} entries/s (${(exportMs / 1000).toFixed(2)} s; ${exportLines} lines, ${(exportBytes / 1e6).toFixed(1)} MB over HTTP; target ≥ 20,000/s)`);
  console.log(`plain SELECT limit:  ${rate(readRows, readMs).toLocaleString('en')} entries/s (${(readMs / 1000).toFixed(2)} s; the same rows, keyset pages of 1,000 via pg) — export / limit ${((readMs / exportMs) * 100).toFixed(0)} %`);
  const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
  console.log(
    `export memory:       peak RSS ${mb(rssPeak)} MB, ${mb(rssPeak - rssBefore)} MB above the ${mb(rssBefore)} MB before it; peak JS heap in use ${mb(heapPeak)} MB, ${mb(heapPeak - heapBefore)} MB above ${mb(heapBefore)} MB (the app and this client in one process)`,
  );
  // What an entry costs the machine. Postgres' share is a floor no client can go under; with the
  // app's share, cores / (CPU per entry) bounds the import's rate here, however parallel.
  const importPostgres = importCpu.postgresSeconds;
  const limitPostgres = limitCpu.postgresSeconds;
  if (importPostgres !== undefined && limitPostgres !== undefined) {
    const importCpuTotal = importCpu.processSeconds + importPostgres;
    console.log(`CPU, import:         app ${cpuLine(importCpu.processSeconds, importMs / 1000, total, 'entry')}; Postgres ${cpuLine(importPostgres, importMs / 1000, total, 'entry')}`);
    console.log(`CPU, limit:          Postgres ${cpuLine(limitPostgres, limitMs / 1000, limitRows, 'entry')}`);
    console.log(`CPU ceiling here (${cores()} cores): the import ≤ ${rate(total * cores(), importCpuTotal * 1000).toLocaleString('en')} entries/s; Postgres' share alone ≤ ${rate(total * cores(), importPostgres * 1000).toLocaleString('en')}`);
  } else {
    console.log('CPU: Postgres does not run on this machine; its share is not shown');
  }
} finally {
  await db.query('DELETE FROM organizations WHERE id = ANY($1::text[])', [orgIds]);
  await app.close();
}
