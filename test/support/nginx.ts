import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { stopChild } from './stop-child.js';

export const NGINX = '/usr/sbin/nginx';
export const hasNginx = existsSync(NGINX);

export interface Nginx {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Its scratch folder (cache, temp files, error log). */
  dir: string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx as a CDN of the test's own: a scratch folder, a free port, and `server(...)` —
 * the server block's inner directives, given the port and folder — inside a minimal http block
 * with a `folio` proxy cache zone and the `http` directives given. `modules` are `load_module`
 * paths. Resolves once it answers.
 */
export async function startNginx(options: { server: (port: number, dir: string) => string; modules?: string[]; http?: string }): Promise<Nginx> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-nginx-'));
  // nginx started as root runs its workers as nobody: they write the cache and temp files here
  await chmod(dir, 0o777);
  const port = await freePort();
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `${(options.modules ?? []).map((m) => `load_module ${m};\n`).join('')}daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  access_log off;
  proxy_cache_path ${dir}/cache keys_zone=folio:1m;
  client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p; fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
${options.http ?? ''}
  server {
    listen 127.0.0.1:${port};
${options.server(port, dir)}
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await fetch(url).then((r) => r.status > 0, () => false))) {
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dir,
    async stop() {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `location /` proxying to `upstream` through the `folio` cache, its status in X-CDN-Cache. */
export const cachingProxy = (upstream: string, directives: string[] = []): string => `    location / {
      proxy_pass ${upstream};
      proxy_cache folio;
${directives.map((d) => `      ${d};\n`).join('')}      add_header X-CDN-Cache $upstream_cache_status always;
    }`;

/** Debian's cache purge module (libnginx-mod-http-cache-purge). */
export const PURGE_MODULE = '/usr/lib/nginx/modules/ngx_http_cache_purge_module.so';
export const hasPurgeModule = hasNginx && existsSync(PURGE_MODULE);

/**
 * The README's nginx configuration for Folio behind nginx with purging by URL: the cache key holds
 * the URL, the class of `Accept` (the map) and `Origin` — what Folio's answers vary on — instead of
 * nginx's own `Vary` handling, and `/purge<path>` forgets the copy whose key its request's headers
 * give (Folio's purge target sends one such request per variant it served). The path is a named
 * capture: the map's own regular expressions reset `$1` before the key is built. `http` and
 * `server` go to `startNginx`.
 */
export const purgeableCache = (upstream: string): { http: string; server: () => string } => ({
  http: `  map $http_accept $folio_accept {
    default                                other;
    ~*image/avif                           avif;
    ~*image/webp                           webp;
    ~*application/graphql-response\\+json   graphql;
  }`,
  server: () => `    location ~ ^/purge(?<folio_path>/.*)$ {
      allow 127.0.0.1;
      deny all;
      proxy_cache_purge folio "$folio_path$is_args$args|$folio_accept|$http_origin";
    }
${cachingProxy(upstream, ['proxy_cache_key "$uri$is_args$args|$folio_accept|$http_origin"', 'proxy_ignore_headers Vary'])}`,
});
