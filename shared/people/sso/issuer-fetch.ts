import http from 'node:http';
import https from 'node:https';
import type { CustomFetch } from 'openid-client';
import { checkTarget, guardedLookup } from '../../webhooks/target-guard.js';

/** The most an issuer's answer (discovery, keys, tokens, userinfo) may weigh. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The `fetch` openid-client uses to reach an organization's issuer. A tenant chooses that URL, so
 * like a webhook receiver it may not lead to loopback, private, link-local (cloud metadata) or
 * other reserved addresses — checked on the addresses the connection itself resolves — unless
 * SSO_ALLOW_PRIVATE_ISSUERS says the deployment's issuers live on a private network. Answers are
 * capped at 1 MiB.
 */
export function issuerFetch(allowPrivate: boolean): CustomFetch {
  const lookup = guardedLookup(allowPrivate);
  const agents = { 'http:': new http.Agent({ keepAlive: true, lookup }), 'https:': new https.Agent({ keepAlive: true, lookup }) };
  return async (url, options) => {
    const target = new URL(url);
    await checkTarget(target, allowPrivate);
    const body = options.body instanceof URLSearchParams ? options.body.toString() : options.body;
    if (body instanceof ReadableStream) throw new Error('a streamed request body is not supported');
    return new Promise<Response>((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(target, { method: options.method, headers: options.headers, agent: agents[target.protocol as 'http:' | 'https:'], signal: options.signal }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return res.destroy(new Error(`the answer of ${target.origin} is larger than 1 MiB`));
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
          }
          const status = res.statusCode ?? 502;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
        });
      });
      req.on('error', reject);
      req.end(body === undefined || body === null ? undefined : typeof body === 'string' ? body : Buffer.from(body instanceof ArrayBuffer ? new Uint8Array(body) : body));
    });
  };
}
