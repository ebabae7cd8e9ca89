import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one load run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  /** Responses received. */
  responses: number;
  /** Latency at each percentile autocannon reports (q in 0–1, ascending), for merging runs. */
  percentiles?: Array<{ q: number; ms: number }>;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/** A request other than a plain GET, for autocannon. */
export interface AutocannonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Replace `[<id>]` in the body with a fresh id per request. */
  idReplacement?: boolean;
  /** Worker threads (default: one per core). */
  workers?: number;
}

/**
 * autocannon in its own process, as a client is: in the process it measures, it would share that
 * process's heap, garbage collector and event-loop threads. It turns every response body into a
 * string (`body += chunk`), a UTF-8 decode that costs more CPU per binary image than the server
 * spends answering: for images one thread of it is the ceiling long before the server is, hence a
 * worker per core by default.
 */
export async function autocannonLoad(url: string, o: LoadOptions & AutocannonRequest): Promise<LoadResult & { workers: number }> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const workers = o.workers ?? os.availableParallelism();
  const args = [cli, '--json', '-c', String(o.connections), '-d', String(o.seconds), '-w', String(workers)];
  if (o.method) args.push('-m', o.method);
  for (const [name, value] of Object.entries(o.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (o.body !== undefined) args.push('-b', o.body);
  if (o.idReplacement) args.push('-I');
  const { stdout } = await run(process.execPath, [...args, url], { maxBuffer: 64 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: Record<string, number> & { p50: number; p99: number }; non2xx: number; errors: number };
  if (r.errors > 0) throw new Error(`autocannon: ${r.errors} connection errors against ${url}`);
  // keys like p97_5 and p99_999: the percentile with `_` for the decimal point
  const percentiles = Object.entries(r.latency)
    .filter(([k]) => /^p\d+(_\d+)?$/.test(k))
    .map(([k, ms]) => ({ q: Number(k.slice(1).replace('_', '.')) / 100, ms }))
    .sort((a, b) => a.q - b.q);
  return { requestsPerSecond: r.requests.average, responses: r.requests.total, percentiles, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, workers };
}

/**
 * wrk (Debian's `wrk` package), a load generator in C that counts response bytes without decoding
 * them; undefined when it is not installed.
 */
export async function wrkLoad(url: string, o: LoadOptions): Promise<LoadResult | undefined> {
  let stdout: string;
  try {
    ({ stdout } = await run('wrk', ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', url]));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const percentile = (p: number) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)\\b`).exec(stdout);
    if (!m) throw new Error(`unexpected wrk output:\n${stdout}`);
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
  };
  if (!rate) throw new Error(`unexpected wrk output:\n${stdout}`);
  // connect, read, write or timeout errors: requests that never made a rate (autocannon's errors)
  const socketErrors = /Socket errors:(.*)/.exec(stdout);
  if (socketErrors && /[1-9]/.test(socketErrors[1])) throw new Error(`wrk against ${url}: socket errors:${socketErrors[1]}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
  const responses = /(\d+) requests in/.exec(stdout);
  if (!responses) throw new Error(`unexpected wrk output:\n${stdout}`);
  return { requestsPerSecond: Number(rate[1]), responses: Number(responses[1]), p50Ms: percentile(50), p99Ms: percentile(99), non2xx: non2xx ? Number(non2xx[1]) : 0 };
}
