import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

function preferredEncoding(acceptEncoding: string | null): Encoding | null {
  const accepted = (acceptEncoding ?? '').toLowerCase().split(',').map((e) => e.trim().split(';')[0]);
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/**
 * GraphiQL is one HTML page of about 9 MB (its bundle inlined), the same for every request: it is
 * sent compressed (brotli, else gzip, as the browser accepts; about 1.5 MB) and compressed once
 * per server, on the libuv pool. Only this page: GraphQL answers stay uncompressed, since a
 * compression step would cost every query CPU (a CDN or proxy in front compresses those).
 */
export function useCompressedGraphiql(): Plugin {
  const compressed = new Map<string, Promise<Buffer>>();
  return {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' || !response.headers.get('content-type')?.startsWith('text/html')) return;
      const encoding = preferredEncoding(request.headers.get('accept-encoding'));
      if (!encoding) return;
      const html = await response.text();
      const key = `${encoding}:${html.length}`;
      let body = compressed.get(key);
      if (!body) {
        const input = Buffer.from(html);
        // brotli's default quality (11) takes seconds on 9 MB; 5 is nearly as small in a fraction
        body = encoding === 'br' ? brotli(input, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipAsync(input);
        compressed.set(key, body);
      }
      const bytes = await body;
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-encoding', encoding);
      headers.set('content-length', String(bytes.length));
      headers.append('vary', 'Accept-Encoding');
      setResponse(new fetchAPI.Response(new Uint8Array(bytes), { status: response.status, headers }));
    },
  };
}
