import { gzipSync } from 'node:zlib';
import type { TestApp, TestOrg } from '../support/harness.js';

/** Shared steps of the ingest and analytics integration tests. */
export interface AnalyticsOrg extends TestOrg {
  projectId: string;
  ingestToken: string;
  analyticsToken: string;
}

export async function createAnalyticsOrg(app: TestApp): Promise<AnalyticsOrg> {
  const org = await app.createOrg('Analytics test');
  const project = await app.json('/management/v1/projects', { token: org.manageToken, body: { name: 'Site' } });
  if (project.status !== 201) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  return {
    ...org,
    projectId: project.body.result.id,
    ingestToken: await app.createToken(org.manageToken, ['ingest']),
    analyticsToken: await app.createToken(org.manageToken, ['analytics']),
  };
}

export async function createDistribution(app: TestApp, org: AnalyticsOrg, id: string): Promise<void> {
  const res = await app.json(`/management/v1/projects/${org.projectId}/distributions`, {
    token: org.manageToken,
    body: { id, name: id, hostnames: [`${id}.example.com`] },
  });
  if (res.status !== 201) throw new Error(`distribution: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function pushLogs(
  app: TestApp,
  token: string,
  distributionId: string,
  body: string | Buffer,
  options: { contentType?: string; gzip?: boolean; encoding?: string; query?: string } = {},
) {
  let raw: Buffer = typeof body === 'string' ? Buffer.from(body) : body;
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/x-ndjson' };
  if (options.gzip) {
    raw = gzipSync(raw);
    headers['content-encoding'] = 'gzip';
  }
  if (options.encoding) headers['content-encoding'] = options.encoding;
  return app.json(`/ingest/v1/distributions/${encodeURIComponent(distributionId)}/logs${options.query ?? ''}`, {
    method: 'POST',
    token,
    rawBody: new Uint8Array(raw),
    headers,
  });
}

/** Waits until every spooled batch of the org is in ClickHouse. */
export async function waitForSpool(app: TestApp, orgId: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await app.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ingest_batches WHERE org_id = $1 AND state = 'pending'`,
      [orgId],
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} batches still pending`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The reports over a window; the real-time one reads the last 30 minutes whatever the window. */
export const REPORTS = ['', '/geo', '/path', '/device', '/referers', '/status', '/bots'] as const;
export const ENDPOINTS = [...REPORTS, '/realtime', '/assets', '/entries'] as const;

/** Every windowed analytics answer for a distribution and window (results only). */
export async function allAnalytics(app: TestApp, org: AnalyticsOrg, distributionId: string, query: string) {
  const out: Record<string, unknown> = {};
  for (const suffix of REPORTS) {
    const res = await app.json(`/api/v1/projects/${org.projectId}/distributions/${distributionId}/analytics${suffix}?${query}`, {
      token: org.analyticsToken,
    });
    if (res.status !== 200) throw new Error(`analytics${suffix}: ${res.status} ${JSON.stringify(res.body)}`);
    out[suffix || 'overview'] = res.body.result;
  }
  return out;
}

/** The statements the app's analytics store runs from now on, until `stop()` (puts the store back). */
export function recordStatements(app: TestApp): { statements: string[]; stop(): void } {
  const statements: string[] = [];
  const store = app.services.analytics;
  const query = store.query.bind(store);
  store.query = (sql, params) => {
    statements.push(sql);
    return query(sql, params);
  };
  return { statements, stop: () => void (store.query = query) };
}
