/**
 * `npm run bench:webhooks`: webhook delivery on the production stack (Postgres, BullMQ on Redis;
 * the API and its workers in this process, as `npm start` runs them), to a receiver in a process
 * of its own.
 *
 * 1. Latency: entries published through the REST API at a steady rate; for each, the time from
 *    sending the publish request (so an upper bound of "from commit") to the receiver's first
 *    byte of its `entry.published` delivery. p50 and p99.
 * 2. Throughput: BENCH_EVENTS events committed at once (distinct subjects, so their lanes run in
 *    parallel) until the receiver has every delivery — against the limit measured in the same
 *    run: a bare loop POSTing the same number of Standard-Webhooks-signed bodies to the same
 *    receiver over keep-alive connections, as many in flight as Folio's WEBHOOK_CONCURRENCY.
 *    BENCH_CONCURRENCY (default 32) sets both. The two alternate for BENCH_ROUNDS rounds
 *    (default 3), so a shared machine's drift touches both alike, and their medians are compared.
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), REDIS_URL (default
 * redis://127.0.0.1:6379), BENCH_RATE (publishes/s, default 20), BENCH_SECONDS (default 15),
 * BENCH_EVENTS (default 5000).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createQueue } from '../../shared/adapters/queue/index.js';
import { recordEvents } from '../../shared/events/record-events.js';
import { newId, randomBase62 } from '../../shared/ids.js';
import { newWebhookSecret, signDelivery } from '../../shared/webhooks/signing.js';
import { startTestApp } from '../support/harness.js';
import type { Arrival } from './webhook-receiver-process.js';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
const rate = Number(process.env.BENCH_RATE ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const events = Number(process.env.BENCH_EVENTS ?? 5000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const receiver = fork(fileURLToPath(new URL('./webhook-receiver-process.js', import.meta.url)));
const { port } = (await once(receiver, 'message'))[0] as { port: number };
const receiverUrl = `http://127.0.0.1:${port}/hook`;
const take = async (): Promise<Arrival[]> => {
  receiver.send('take');
  return ((await once(receiver, 'message'))[0] as { arrivals: Arrival[] }).arrivals;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

let benchOrgId: string | undefined;
const app = await startTestApp({
  // the product's pool size (the test harness's default of 4 is for many apps side by side)
  env: { WEBHOOK_DISPATCH: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CONCURRENCY: String(concurrency), DATABASE_POOL_SIZE: '16', LOG_LEVEL: 'warn' },
});
try {
  console.log(`bench:webhooks — ${app.services.db.kind} + ${app.services.queue.kind}, receiver in its own process, ${concurrency} deliveries in flight`);
  const org = await app.createOrg('bench');
  benchOrgId = org.orgId;
  const m = (p: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    app.json(`/management/v1${p}`, { token: org.manageToken, method, body });
  const site = (await m('/sites', { name: 'Web' })).body.result.id as string;
  await m('/models/story', { fields: [{ alias: 'title', type: 'text' }] }, 'PUT');
  await m('/webhooks', { url: receiverUrl, events: ['entry.published', 'label.changed'] });

  // 1. latency at a steady publish rate
  const count = rate * seconds;
  progress(`creating ${count} draft entries`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await m('/entries', { model: 'story', siteId: site, fields: { title: `Story ${i}` } })).body.result.id as string);
  await sleep(500);
  await take();
  progress(`publishing ${rate}/s for ${seconds} s`);
  const sentAt = new Map<string, number>();
  const start = performance.now();
  const publishes: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt.set(ids[i], performance.timeOrigin + performance.now());
    publishes.push(m(`/entries/${ids[i]}/publish`, {}));
  }
  await Promise.all(publishes);
  const arrivals: Arrival[] = [];
  for (let waited = 0; arrivals.length < count && waited < 30_000; waited += 100) {
    arrivals.push(...(await take()));
    await sleep(100);
  }
  const latencies = arrivals.filter((a) => a.entryId && sentAt.has(a.entryId)).map((a) => a.at - sentAt.get(a.entryId!)!).sort((a, b) => a - b);
  console.log(
    `publish → receiver:  p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms ` +
      `(${latencies.length}/${count} delivered, ${rate} publishes/s; from sending the request; target p50 ≤ 100 ms)`,
  );

  // 2. throughput, in alternating rounds: Folio, then the limit — a bare loop of signed POSTs to
  // the same receiver — so that both meet the machine in the same state; medians are compared
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const secret = newWebhookSecret();
  const body = JSON.stringify({ type: 'label.changed', timestamp: new Date().toISOString(), data: { orgId: org.orgId, id: 'bench', action: 'updated' } });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const headers = signDelivery([secret], `msg_${newId()}`, new Date(), body);
      const req = http.request(receiverUrl, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(body);
    });

  const folioRound = async (round: number) => {
    progress(`round ${round}: committing ${events} events at once`);
    const t0 = performance.now();
    await app.services.db.transaction((tx) =>
      recordEvents(
        tx,
        org.orgId,
        Array.from({ length: events }, (_, i) => ({ type: 'label.changed' as const, subject: `label:bench-${round}-${i}`, data: { id: `bench-${round}-${i}`, action: 'updated' } })),
      ),
    );
    let got = 0;
    let dispatchedMs = 0;
    const seen = new Set<string>();
    while (seen.size < events && performance.now() - t0 < 120_000) {
      for (const a of await take()) {
        got++;
        seen.add(a.entryId ?? '');
      }
      if (!dispatchedMs && !(await app.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND dispatched_at IS NULL', [org.orgId])).rows[0].n) {
        dispatchedMs = performance.now() - t0;
      }
      if (seen.size < events) await sleep(20);
    }
    const ms = performance.now() - t0;
    return { rate: seen.size / (ms / 1000), delivered: seen.size, twice: got - seen.size, ms, dispatchedMs };
  };
  const bareRound = async (round: number) => {
    progress(`round ${round}: bare loop, ${events} signed POSTs, ${concurrency} in flight`);
    const l0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next++ < events) await post();
    }));
    const ms = performance.now() - l0;
    await take();
    return { rate: events / (ms / 1000), ms };
  };
  const folio: Awaited<ReturnType<typeof folioRound>>[] = [];
  const bare: Awaited<ReturnType<typeof bareRound>>[] = [];
  for (let round = 1; round <= rounds; round++) {
    folio.push(await folioRound(round));
    bare.push(await bareRound(round));
  }
  const median = <T extends { rate: number }>(xs: T[]): T => [...xs].sort((a, b) => a.rate - b.rate)[Math.floor(xs.length / 2)];
  const folioMedian = median(folio);
  const bareMedian = median(bare);
  const folioRate = folioMedian.rate;
  const limitRate = bareMedian.rate;

  // the same loop with the least any durable record of an attempt costs: each POST reads its
  // delivery by primary key first and writes its outcome after (two statements, the app's pool)
  progress(`bare loop + one read and one write per POST in Postgres`);
  const { rows: stored } = await app.services.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE org_id = $1 LIMIT $2', [org.orgId, events]);
  const d0 = performance.now();
  let nextDurable = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = nextDurable++; i < stored.length; i = nextDurable++) {
      const id = stored[i].id;
      await app.services.db.query('SELECT body, attempts FROM webhook_deliveries WHERE org_id = $1 AND id = $2', [org.orgId, id]);
      const started = performance.now();
      await post();
      await app.services.db.query('UPDATE webhook_deliveries SET last_duration_ms = $3 WHERE org_id = $1 AND id = $2', [org.orgId, id, Math.round(performance.now() - started)]);
    }
  }));
  const durableRate = stored.length / ((performance.now() - d0) / 1000);
  agent.destroy();
  await take();

  // what the queue alone allows: the same number of no-op jobs through the same kind of queue,
  // enqueued at once and run as many at a time as deliveries are
  progress(`queue alone: ${events} no-op jobs, ${concurrency} at a time`);
  const queue = await createQueue(app.services.config, { prefix: `folio:benchq${randomBase62(6)}` });
  let ran = 0;
  const allRan = new Promise<void>((resolve) => {
    queue.process('echo', async (p) => {
      if (++ran === events) resolve();
      return { value: p.value, attempt: 1 };
    }, { concurrency });
  });
  const q0 = performance.now();
  for (let i = 0; i < events; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, events - i) }, (_, j) => queue.enqueue('echo', { orgId: org.orgId, version: 1, value: i + j })));
  }
  await allRan;
  const queueRate = events / ((performance.now() - q0) / 1000);
  await queue.close();

  const rates = (xs: { rate: number }[]) => xs.map((x) => Math.round(x.rate).toLocaleString('en')).join(', ');
  console.log(
    `Folio deliveries:    ${Math.round(folioRate).toLocaleString('en')} events/s, median of ${rounds} rounds (${rates(folio)}); median round: ` +
      `${folioMedian.delivered}/${events} in ${(folioMedian.ms / 1000).toFixed(2)} s, all dispatched after ${(folioMedian.dispatchedMs / 1000).toFixed(2)} s; ` +
      `${folio.reduce((n, r) => n + r.twice, 0)} sent twice in all; from COMMIT: dispatch, queue, sign, POST, record`,
  );
  console.log(`bare signed POSTs:   ${Math.round(limitRate).toLocaleString('en')} requests/s, median of ${rounds} rounds (${rates(bare)}), same receiver`);
  console.log(`Folio / limit:       ${((folioRate / limitRate) * 100).toFixed(0)} %  (target ≥ 50 %)`);
  console.log(`bare + 2 statements: ${Math.round(durableRate).toLocaleString('en')} requests/s (a primary-key read before and an UPDATE after each POST) — Folio reaches ${((folioRate / durableRate) * 100).toFixed(0)} % of it`);
  console.log(`queue alone:         ${Math.round(queueRate).toLocaleString('en')} no-op jobs/s (${app.services.queue.kind}; one job per delivery attempt) — Folio reaches ${((folioRate / queueRate) * 100).toFixed(0)} % of it`);
} finally {
  // its webhooks, deliveries and events go with it: a later run must not inherit pending work
  if (benchOrgId && process.env.BENCH_KEEP !== '1') await app.services.db.query('DELETE FROM organizations WHERE id = $1', [benchOrgId]);
  await app.close();
  receiver.disconnect();
}
