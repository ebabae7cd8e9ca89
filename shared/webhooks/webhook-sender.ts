import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { SignedHeaders } from './signing.js';
import { guardedLookup, refusedAddress, TargetRefused } from './target-guard.js';

/** What one attempt came to, as the delivery log shows it. */
export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's status; null when none came (refused, unreachable, timed out). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the response body (the rest is not read). */
  excerpt: string | null;
  /** Node refused to make the request (see unsendable): every retry would fail the same. */
  unsendable?: boolean;
}

export interface WebhookSender {
  /** POSTs a JSON body (or sends `method`; the caller's headers win over the JSON content type). */
  send(url: string, headers: SignedHeaders | Record<string, string>, body: string, method?: string): Promise<AttemptOutcome>;
  close(): void;
}

/** Bytes of a response read at most; the excerpt keeps the first 256 characters of them. */
const READ_LIMIT = 4096;
const EXCERPT_CHARS = 256;

/**
 * The outcome of a request Node refuses to make — a URL it cannot parse, a header value holding
 * CR, LF or another control character, a protocol other than http(s): it throws before a byte is
 * sent, and would throw the same on every retry, so the attempt fails for good with Node's reason
 * (its code and message name the header, never its value).
 */
function unsendable(err: unknown): Omit<AttemptOutcome, 'durationMs'> {
  const { code, message } = err as NodeJS.ErrnoException;
  return { ok: false, unsendable: true, statusCode: null, error: `cannot be sent: ${code ?? 'error'}: ${message}`, excerpt: null };
}

/**
 * POSTs deliveries over keep-alive connections (one pool per process, made in Services). Every
 * new connection goes through the guarded lookup; a literal address is checked before the request.
 * A 2xx is success; anything else — a redirect (not followed), another status, no answer within
 * `timeoutMs` from the first byte sent to the last one read — is a failure to retry; a request
 * that cannot be made at all is a failure not to retry.
 */
export function createWebhookSender(options: { timeoutMs: number; allowPrivateTargets: boolean }): WebhookSender {
  const lookup = guardedLookup(options.allowPrivateTargets);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions),
  };

  return {
    send(rawUrl, headers, body, method = 'POST') {
      const started = performance.now();
      const done = (partial: Omit<AttemptOutcome, 'durationMs'>): AttemptOutcome => ({ ...partial, durationMs: Math.round(performance.now() - started) });
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch (err) {
        return Promise.resolve(done(unsendable(err)));
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const refused = isIP(host) && !options.allowPrivateTargets ? refusedAddress(host) : null;
      if (refused) return Promise.resolve(done({ ok: false, statusCode: null, error: `target refused: ${refused}`, excerpt: null }));
      const transport = url.protocol === 'https:' ? https : http;
      let req: http.ClientRequest;
      try {
        req = transport.request(url, {
          method,
          agent: agents[url.protocol as 'http:' | 'https:'],
          headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body), 'user-agent': 'Folio-Webhooks/1' },
        });
      } catch (err) {
        return Promise.resolve(done(unsendable(err)));
      }
      // its errors come from the event loop, after these listeners are on
      return new Promise<AttemptOutcome>((resolve) => {
        let settled = false;
        const finish = (o: Omit<AttemptOutcome, 'durationMs'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(done(o));
        };
        const timer = setTimeout(() => {
          finish({ ok: false, statusCode: null, error: `no complete answer within ${options.timeoutMs} ms`, excerpt: null });
          req.destroy();
        }, options.timeoutMs);
        req.on('error', (err) => {
          const error = err instanceof TargetRefused ? `target refused: ${err.message}` : `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`;
          finish({ ok: false, statusCode: null, error, excerpt: null });
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          let read = 0;
          const conclude = () => {
            const status = res.statusCode ?? 0;
            const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS) || null;
            const ok = status >= 200 && status < 300;
            const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
            finish({ ok, statusCode: status, error, excerpt });
          };
          res.on('data', (chunk: Buffer) => {
            if (read < READ_LIMIT) chunks.push(chunk.subarray(0, READ_LIMIT - read));
            read += chunk.length;
            if (read >= READ_LIMIT) {
              conclude();
              res.destroy();
            }
          });
          res.on('end', conclude);
          res.on('error', conclude);
        });
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
