import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, waitForSpool, type AnalyticsOrg } from '../integration/ingest-support.js';

/**
 * A real shipper end to end: nginx writes its access log (combined format), Debian's syslog-ng
 * 3.38 tails it with a file() source and POSTs batches with its http() destination — the
 * README's configuration, read from the README — and Folio counts every request nginx served. syslog-ng is unpacked
 * by .ci/run into .tmp/syslog-ng (installing the package would replace rsyslog).
 */
const NGINX = '/usr/sbin/nginx';
const SYSLOG_NG_ROOT = process.env.SYSLOG_NG_ROOT ?? path.join(projectRoot, '.tmp/syslog-ng');
const SYSLOG_NG = path.join(SYSLOG_NG_ROOT, 'usr/sbin/syslog-ng');
const available = existsSync(NGINX) && existsSync(SYSLOG_NG);
if (!available) console.warn(`skipping the syslog-ng shipper test: needs ${NGINX} and ${SYSLOG_NG} (.ci/run prepares both)`);

/** The README's syslog-ng configuration, with this test's file, URL and token put in. */
async function readmeSyslogNgConfig(o: { accessLog: string; url: string; token: string }): Promise<string> {
  const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
  const block = /<!-- readme-test: syslog-ng -->\n```conf\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README has no syslog-ng block marked for the test');
  const config = block[1]
    .replace('/var/log/nginx/access.log', o.accessLog)
    .replace('https://folio.example.com/ingest/v1/distributions/my-distribution/logs', o.url)
    .replace('FOLIO_INGEST_TOKEN', o.token);
  expect(config).not.toMatch(/example\.com|FOLIO_INGEST_TOKEN|\/var\/log/);
  return config;
}

describe.runIf(available)('syslog-ng shipping a real nginx access log', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let dir: string;
  let nginxPort: number;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'nginx');
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-syslog-ng-'));
    nginxPort = await freePort();
    const accessLog = path.join(dir, 'access.log');
    await writeFile(accessLog, '');
    await writeFile(
      path.join(dir, 'nginx.conf'),
      `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  access_log ${accessLog} combined;
  client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p; fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
  server { listen 127.0.0.1:${nginxPort}; location / { return 200 "hello\\n"; } }
}
`,
    );
    await writeFile(path.join(dir, 'syslog-ng.conf'), await readmeSyslogNgConfig({ accessLog, url: `${app.baseUrl}/ingest/v1/distributions/nginx/logs`, token: org.ingestToken }));
    children.push(spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' }));
    const lib = [path.join(SYSLOG_NG_ROOT, 'usr/lib/x86_64-linux-gnu'), path.join(SYSLOG_NG_ROOT, 'usr/lib/syslog-ng'), path.join(SYSLOG_NG_ROOT, 'lib/x86_64-linux-gnu')].join(':');
    children.push(
      spawn(
        SYSLOG_NG,
        ['-F', '--no-caps', '-f', path.join(dir, 'syslog-ng.conf'), `--module-path=${path.join(SYSLOG_NG_ROOT, 'usr/lib/syslog-ng/3.38')}`, `--persist-file=${dir}/syslog-ng.persist`, `--pidfile=${dir}/syslog-ng.pid`, `--control=${dir}/syslog-ng.ctl`],
        { env: { ...process.env, LD_LIBRARY_PATH: lib }, stdio: 'ignore' },
      ),
    );
    const deadline = Date.now() + 10_000;
    while (!(await fetch(`http://127.0.0.1:${nginxPort}/`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error('nginx did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000)); // syslog-ng opens the file
  }, 60_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('every request nginx served is counted once', async () => {
    const requests = 40;
    for (let i = 0; i < requests; i++) await fetch(`http://127.0.0.1:${nginxPort}/shipped/${i}`);
    let counted = 0;
    const deadline = Date.now() + 30_000;
    while (counted < requests + 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      await waitForSpool(app, org.orgId);
      const [row] = await app.services.analytics.query<{ n: number }>(`SELECT count() AS n FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = 'nginx'`, { org: org.orgId });
      counted = Number(row.n);
    }
    // the readiness probe's GET / and the 40 requests
    expect(counted).toBe(requests + 1);
    const [paths] = await app.services.analytics.query<{ n: number }>(`SELECT uniqExact(path) AS n FROM cdn_logs WHERE org_id = {org:String} AND startsWith(path, '/shipped/')`, { org: org.orgId });
    expect(Number(paths.n)).toBe(requests);
  }, 60_000);
});
