import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, as the wire carried it. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** performance.now() when the request's first byte arrived. */
  at: number;
}

/**
 * What to answer: a status, a status with a JSON body (an API stand-in), or never (the connection
 * stays open until the receiver closes).
 */
export type Answer = number | 'hang' | { status: number; json: unknown };

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Decides each answer; receives the request and how many times its webhook-id came before. */
  answer: (r: Received, seenBefore: number) => Answer;
  /** Resolves once `predicate` holds for the received list (polling), or rejects after `timeoutMs`. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every webhook delivery it gets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 204,
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${receiver.received.length} received: ${receiver.received.map((r) => r.payload.type).join(', ')})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const r: Received = { method: req.method ?? '', path: req.url ?? '/', headers, body, payload: parsedOrEmpty(body), at };
      const seenBefore = receiver.received.filter((x) => x.headers['webhook-id'] === headers['webhook-id']).length;
      receiver.received.push(r);
      const answer = receiver.answer(r, seenBefore);
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (typeof answer === 'object') res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? `failing on purpose (${answer})` : 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** A webhook's JSON body; other requests (a purge's, often bodiless) get an empty payload. */
function parsedOrEmpty(body: string): Received['payload'] {
  try {
    return JSON.parse(body) as Received['payload'];
  } catch {
    return { type: '', timestamp: '', data: {} };
  }
}
