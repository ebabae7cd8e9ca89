import http, { type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A load balancer in front of several API processes, behaving as the ones Kubernetes setups use
 * do: it probes each upstream's `/readyz` every `periodMs` and routes round-robin to the ready
 * ones only, over kept-alive connections. A connection an upstream refuses or resets is answered
 * 502 and counted, so a rolling restart shows what clients would have lost.
 */
export interface Balancer {
  readonly url: string;
  /** Refused and reset upstream connections, per `current()` fault at the time. */
  failures(): Map<string, { refused: number; reset: number; samples: string[] }>;
  /** Resolves once the upstream at `index` has been seen ready by a probe. */
  untilReady(index: number): Promise<void>;
  close(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 3000;
/** Hop-by-hop headers: they describe one connection, not the message, and are not forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade'];
const endToEnd = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name)));

export async function startBalancer(upstreams: string[], options: { periodMs: number; failureThreshold: number; current: () => string }): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const ready = upstreams.map(() => false);
  const failures = new Map<string, { refused: number; reset: number; samples: string[] }>();
  let next = 0;
  let closed = false;

  // As a Kubernetes readiness probe: every period, out after `failureThreshold` failures in a row
  // (a timeout counts), back in after one success.
  const misses = upstreams.map(() => 0);
  const probe = async (i: number) => {
    const ok = await fetch(`${upstreams[i]}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), headers: { connection: 'close' } }).then((r) => r.ok, () => false);
    misses[i] = ok ? 0 : misses[i] + 1;
    if (ok) ready[i] = true;
    else if (misses[i] >= options.failureThreshold) ready[i] = false;
  };
  await Promise.all(upstreams.map((_, i) => probe(i)));
  const probing = upstreams.map(async (_, i) => {
    while (!closed) {
      await new Promise((r) => setTimeout(r, options.periodMs));
      if (!closed) await probe(i);
    }
  });

  const count = (err: NodeJS.ErrnoException) => {
    const fault = options.current();
    let f = failures.get(fault);
    if (!f) failures.set(fault, (f = { refused: 0, reset: 0, samples: [] }));
    if (err.code === 'ECONNREFUSED') f.refused++;
    else f.reset++;
    if (f.samples.length < 5) f.samples.push(err.code ?? err.message);
  };

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const candidates = upstreams.map((_, i) => i).filter((i) => ready[i]);
    if (candidates.length === 0) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('balancer: no upstream ready');
      return;
    }
    const target = new URL(upstreams[candidates[next++ % candidates.length]]);
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...endToEnd(req.headers), host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      count(err);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`balancer: ${err.code ?? err.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });
  // Longer than the clients' idle connections, so the balancer never closes one as a request arrives.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    failures: () => failures,
    async untilReady(index) {
      while (!ready[index] && !closed) await new Promise((r) => setTimeout(r, 50));
    },
    async close() {
      closed = true;
      await Promise.all(probing);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
