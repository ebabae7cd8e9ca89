import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.js';
import type { QueryName } from './graphql-queries.js';

/**
 * The processes of `bench:graphql` (graphql-worker.ts): API replicas and raw-SQL clients, as many
 * of each as asked (BENCH_PROCESSES, default one per core), so that neither side is held to one
 * event loop while the other uses every core. API replicas share their listening ports through
 * node:cluster (connections are dealt out round-robin), as replicas share a load balancer.
 */

export type FromPrimary =
  | { type: 'statements'; id: number }
  | { type: 'run'; id: number; query: QueryName; prepared: boolean; seconds: number; orgId: string }
  | { type: 'answer'; id: number; query: QueryName; text: string; orgId: string }
  | { type: 'close' };

export type FromWorker =
  | { type: 'ready'; urls?: { caching: string; executing: string } | { pg: string; memory: string } }
  | { type: 'answered'; id: number }
  | { type: 'statements'; id: number; statements: number }
  | { type: 'ran'; id: number; latencies: number[] };

interface Group {
  /** Process ids, for their CPU (`cpuDuring`). */
  pids: number[];
  close(): Promise<void>;
}

let nextId = 0;

/** A message that expects an answer, without its id. */
type Request = FromPrimary extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

/** Sends `m` (with a fresh id) and waits for the answer carrying that id. */
function ask<T extends FromWorker>(worker: Worker, m: Request): Promise<T> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const onMessage = (reply: FromWorker) => {
      if ('id' in reply && reply.id === id) {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(reply as T);
      }
    };
    const onExit = (code: number) => reject(new Error(`bench worker ${worker.process.pid} exited (${code}) before answering`));
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    worker.send({ ...m, id });
  });
}

async function forkAll(count: number, env: (i: number) => Record<string, string>): Promise<Array<{ worker: Worker; ready: FromWorker }>> {
  // stdout to /dev/null: the API replicas log at the default level (one JSON line per request),
  // and a writable sink costs them what a log pipe would, without the bench's output to read
  cluster.setupPrimary({ exec: fileURLToPath(new URL('./graphql-worker.js', import.meta.url)), stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const worker = cluster.fork(env(i));
      return new Promise<{ worker: Worker; ready: FromWorker }>((resolve, reject) => {
        worker.once('message', (ready: FromWorker) => resolve({ worker, ready }));
        worker.once('exit', (code) => reject(new Error(`bench worker exited (${code}) while starting`)));
      });
    }),
  );
}

function closer(workers: Worker[]): () => Promise<void> {
  return async () => {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.send({ type: 'close' } satisfies FromPrimary);
          }),
      ),
    );
  };
}

export interface ApiReplicas extends Group {
  /** Base URLs: the default server (response cache on) and the one that executes every request. */
  cachingUrl: string;
  executingUrl: string;
  /** SQL statements the replicas have run so far. */
  statements(): Promise<number>;
}

export async function startApiReplicas(count: number, databaseUrl: string): Promise<ApiReplicas> {
  const started = await forkAll(count, () => ({ BENCH_ROLE: 'api', DATABASE_URL: databaseUrl }));
  const urls = started.map((s) => (s.ready.type === 'ready' && s.ready.urls && 'caching' in s.ready.urls ? s.ready.urls : undefined));
  const first = urls[0];
  if (!first || urls.some((u) => u?.caching !== first.caching || u?.executing !== first.executing)) {
    throw new Error(`API replicas do not share their ports: ${JSON.stringify(urls)}`);
  }
  const workers = started.map((s) => s.worker);
  return {
    pids: workers.map((w) => w.process.pid!),
    cachingUrl: first.caching,
    executingUrl: first.executing,
    async statements() {
      const counts = await Promise.all(workers.map((w) => ask<Extract<FromWorker, { type: 'statements' }>>(w, { type: 'statements' })));
      return counts.reduce((sum, c) => sum + c.statements, 0);
    },
    close: closer(workers),
  };
}

export interface RawClients extends Group {
  /** Runs `query`'s statements on every connection for `seconds`; the latency of each run, in ms. */
  run(query: QueryName, prepared: boolean, seconds: number, orgId: string): Promise<number[]>;
}

/** `connections` pg connections dealt out over `count` client processes. */
export async function startRawClients(count: number, databaseUrl: string, connections: number): Promise<RawClients> {
  const share = (i: number) => Math.floor(connections / count) + (i < connections % count ? 1 : 0);
  const started = await forkAll(count, (i) => ({ BENCH_ROLE: 'raw', DATABASE_URL: databaseUrl, BENCH_CONNECTIONS: String(share(i)) }));
  const workers = started.map((s) => s.worker);
  return {
    pids: workers.map((w) => w.process.pid!),
    async run(query, prepared, seconds, orgId) {
      const parts = await Promise.all(workers.map((w) => ask<Extract<FromWorker, { type: 'ran' }>>(w, { type: 'run', query, prepared, seconds, orgId })));
      return parts.flatMap((p) => p.latencies);
    },
    close: closer(workers),
  };
}

export interface BareServers extends Group {
  /** Base URLs: the bare `pg` server and the bare in-memory one (graphql-worker.ts, role `bare`). */
  pgUrl: string;
  memoryUrl: string;
  /** Gives every process the API's answer to `query`: the bytes the memory server writes. */
  setAnswer(query: QueryName, text: string, orgId: string): Promise<void>;
}

/** The limits of the API's answers: `count` processes of bare node:http servers sharing their ports. */
export async function startBareServers(count: number, databaseUrl: string): Promise<BareServers> {
  // Ports chosen here: node:cluster hands out shared port-0 listeners by the order of a worker's
  // listen calls, so port 0 would give these processes the API replicas' sockets.
  const ports = { BENCH_PG_PORT: String(await freePort()), BENCH_MEMORY_PORT: String(await freePort()) };
  const started = await forkAll(count, () => ({ BENCH_ROLE: 'bare', DATABASE_URL: databaseUrl, ...ports }));
  const urls = started.map((s) => (s.ready.type === 'ready' && s.ready.urls && 'pg' in s.ready.urls ? s.ready.urls : undefined));
  const first = urls[0];
  if (!first || urls.some((u) => u?.pg !== first.pg || u?.memory !== first.memory)) {
    throw new Error(`bare servers do not share their ports: ${JSON.stringify(urls)}`);
  }
  const workers = started.map((s) => s.worker);
  return {
    pids: workers.map((w) => w.process.pid!),
    pgUrl: first.pg,
    memoryUrl: first.memory,
    async setAnswer(query, text, orgId) {
      await Promise.all(workers.map((w) => ask(w, { type: 'answer', query, text, orgId })));
    },
    close: closer(workers),
  };
}
