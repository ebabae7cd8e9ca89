import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one load run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/**
 * autocannon in its own process, with a worker thread per core. In the process it measures, it
 * would share that process's heap and garbage collector; and it turns every response body into
 * a string (`body += chunk`), a UTF-8 decode that costs more CPU per binary image than the server
 * spends answering, so one thread of it is the ceiling long before the server is.
 */
export async function autocannonLoad(url: string, o: LoadOptions): Promise<LoadResult & { workers: number }> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const workers = os.availableParallelism();
  const { stdout } = await run(
    process.execPath,
    [cli, '--json', '-c', String(o.connections), '-d', String(o.seconds), '-w', String(workers), url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number };
  return { requestsPerSecond: r.requests.average, p99Ms: r.latency.p99, non2xx: r.non2xx, workers };
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
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(stdout);
  if (!rate || !p99) throw new Error(`unexpected wrk output:\n${stdout}`);
  const scale = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
  return { requestsPerSecond: Number(rate[1]), p99Ms: Number(p99[1]) * scale, non2xx: non2xx ? Number(non2xx[1]) : 0 };
}
