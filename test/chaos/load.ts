/**
 * Client load of the chaos suite: loops of GraphQL, REST and ingest requests that count every
 * answer under the fault running at the time, so each fault's row says what clients saw.
 */
export interface FaultTally {
  requests: number;
  ok: number;
  unavailable: number;
  /** Of `unavailable`: ingest refused by its backpressure (the workers are behind), a deliberate answer. */
  backlogged: number;
  serverErrors: number;
  /** A load balancer's own 502 (`balancer: …`): it could not use an upstream connection; not Folio's answer. */
  gatewayErrors: number;
  /** Any other answer: 4xx, 504, a timeout or a refused connection. */
  other: number;
  /** Samples of `other` and `serverErrors` answers, to show when an assertion fails. */
  samples: string[];
  /** Samples of 503 answers: which request was unavailable, and why, when a recovery is slow. */
  unavailableSamples: string[];
  linesSent: number;
  linesAccepted: number;
}

export interface LoadTargets {
  baseUrl: string;
  deliveryToken: string;
  manageToken: string;
  ingestToken: string;
  distributionId: string;
}

export function emptyTally(): FaultTally {
  return { requests: 0, ok: 0, unavailable: 0, backlogged: 0, serverErrors: 0, gatewayErrors: 0, other: 0, samples: [], unavailableSamples: [], linesSent: 0, linesAccepted: 0 };
}

const LINES_PER_BATCH = 20;

export function record(tally: FaultTally, status: number | string, what = ''): void {
  tally.requests++;
  if (typeof status === 'number' && status >= 200 && status < 300) tally.ok++;
  else if (status === 503) {
    tally.unavailable++;
    if (isBacklogged(status, what)) tally.backlogged++;
  }
  else if (status === 502 && what.includes(': balancer: ')) tally.gatewayErrors++;
  else if (typeof status === 'number' && status >= 500 && status !== 504) tally.serverErrors++;
  else tally.other++;
  const sample = `${status}${what ? ` (${what})` : ''}`;
  if (status === 503 && tally.unavailableSamples.length < 3) tally.unavailableSamples.push(sample);
  else if (!(typeof status === 'number' && status < 300) && status !== 503 && tally.samples.length < 5) tally.samples.push(sample);
}

/**
 * Ingest's backpressure: the API is up and answers 503 on purpose while the workers drain the
 * spool (they were just restarted), so the client retries later; no line is lost.
 */
export const isBacklogged = (status: number | string, body: string): boolean => status === 503 && body.includes('Ingestion is backlogged');

async function send(url: string, init: RequestInit): Promise<{ status: number | string; body: string }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: err instanceof Error ? err.name : 'error', body: '' };
  }
}

export function graphqlRequest(t: LoadTargets) {
  return send(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.deliveryToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ entryCollection(limit: 5) { total items { system { id } } } }' }),
  });
}

export function restRequest(t: LoadTargets) {
  return send(`${t.baseUrl}/management/v1/models`, { headers: { authorization: `Bearer ${t.manageToken}` } });
}

let sequence = 0;
export async function ingestRequest(t: LoadTargets, fault: string, tally: FaultTally) {
  const now = Date.now();
  const lines = Array.from({ length: LINES_PER_BATCH }, () =>
    JSON.stringify({
      timestamp: new Date(now).toISOString(),
      clientIp: '203.0.113.7',
      method: 'GET',
      host: 'chaos.example.com',
      path: `/chaos/${fault}/${++sequence}`,
      status: 200,
      bytes: 512,
      serveTimeMs: 3,
      cacheStatus: 'HIT',
      referer: '',
      userAgent: 'chaos/1.0',
    }),
  );
  const res = await send(`${t.baseUrl}/ingest/v1/distributions/${t.distributionId}/logs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.ingestToken}`, 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  tally.linesSent += lines.length;
  if (typeof res.status === 'number' && res.status >= 200 && res.status < 300) {
    tally.linesAccepted += (JSON.parse(res.body) as { result: { accepted: number } }).result.accepted;
  }
  return res;
}

/** Runs the loops until `stop()`; every answer is counted under `current()`'s fault. */
export function startLoad(t: LoadTargets, tallies: Map<string, FaultTally>, current: () => string): { stop(): Promise<void> } {
  let running = true;
  const tallyOf = () => {
    const fault = current();
    let tally = tallies.get(fault);
    if (!tally) tallies.set(fault, (tally = emptyTally()));
    return { fault, tally };
  };
  const loop = async (kind: 'graphql' | 'rest' | 'ingest') => {
    while (running) {
      const { fault, tally } = tallyOf();
      const res = kind === 'graphql' ? await graphqlRequest(t) : kind === 'rest' ? await restRequest(t) : await ingestRequest(t, fault, tally);
      record(tally, res.status, `${kind}: ${res.body.slice(0, 160)}`);
      if (typeof res.status !== 'number' || res.status >= 500) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const loops = (['graphql', 'graphql', 'rest', 'rest', 'ingest', 'ingest'] as const).map(loop);
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
