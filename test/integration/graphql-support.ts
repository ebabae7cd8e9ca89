import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../shared/paths.js';
import { createGraphqlServer, type GraphqlServerOptions } from '../../api/graphql/yoga.js';
import { assignRequestId } from '../../api/http/request-context.js';
import type { TestApp } from '../support/harness.js';

/**
 * Helpers of the GraphQL integration tests: content is created through the management REST API
 * (as a user would), then read through /graphql.
 */
export interface GqlOrg {
  orgId: string;
  manage: string;
  delivery: string;
  preview: string;
  siteId: string;
  /** Management call that must succeed; returns `result`. */
  m<T = any>(method: string, pathname: string, body?: unknown): Promise<T>;
  /** GraphQL call; returns the whole response body. */
  q<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }>; extensions?: Record<string, unknown> } }>;
  /** GraphQL call that must succeed without errors; returns `data`. */
  d<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<T>;
}

export async function setupOrg(app: TestApp): Promise<GqlOrg> {
  const org = await app.createOrg();
  const manage = org.manageToken;
  const m = async (method: string, pathname: string, body?: unknown) => {
    const res = await app.json(`/management/v1${pathname}`, { method, token: manage, body });
    if (res.status >= 300) throw new Error(`${method} ${pathname} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body?.result;
  };
  const [delivery, preview] = await Promise.all([app.createToken(manage, ['delivery']), app.createToken(manage, ['preview'])]);
  const site = await m('POST', '/sites', { name: 'Main' });
  const q = async (query: string, variables?: Record<string, unknown>, token = delivery) => {
    const res = await app.json('/graphql', { token, body: { query, variables } });
    return { status: res.status, body: res.body };
  };
  const d = async (query: string, variables?: Record<string, unknown>, token = delivery) => {
    const res = await q(query, variables, token);
    if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${JSON.stringify(res.body.errors ?? res.body)}`);
    return res.body.data;
  };
  return { orgId: org.orgId, manage, delivery, preview, siteId: site.id, m, q: q as GqlOrg['q'], d };
}

/** Uploads a fixture image as an asset; returns its id. */
export async function uploadImage(app: TestApp, manage: string, file = 'goldfish.png'): Promise<string> {
  const body = await readFile(path.join(projectRoot, 'test/fixtures/images', file));
  const res = await app.json(`/management/v1/assets?fileName=${encodeURIComponent(file)}`, {
    method: 'POST',
    token: manage,
    rawBody: new Uint8Array(body),
    headers: { 'content-type': file.endsWith('.png') ? 'image/png' : 'image/jpeg' },
  });
  if (res.status !== 201) throw new Error(`upload → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.id as string;
}

/**
 * Test-only fixture: an asset row written straight to the database, for asset types the upload
 * endpoint cannot produce from the fixture files (uploads sniff the bytes, and there is no video
 * fixture). Images go through `uploadImage`.
 */
export async function insertAsset(app: TestApp, orgId: string, a: { id: string; type?: string; fileName?: string; focalPoint?: { x: number; y: number } }): Promise<string> {
  await app.services.db.query(
    `INSERT INTO assets (org_id, id, version_id, type, title, content_type, file_name, size, width, height, focal_point, focal_points, tags)
     VALUES ($1, $2, 'v1', $3, $4, 'image/png', $5, 1234, 640, 480, $6::jsonb, $7::jsonb, ARRAY['a','b'])`,
    [
      orgId,
      a.id,
      a.type ?? 'IMAGE',
      `Title ${a.id}`,
      a.fileName ?? `${a.id}.png`,
      a.focalPoint ? JSON.stringify(a.focalPoint) : null,
      JSON.stringify(a.focalPoint ? [{ ratio: '1:1', focalPoint: a.focalPoint }] : []),
    ],
  );
  return a.id;
}

/** A rich-content document from blocks. */
export const doc = (...content: unknown[]) => ({ type: 'doc', content });
export const para = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
export const heading = (level: number, text: string) => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text }] });

/** Ids of a collection's items, for order-sensitive assertions. */
export const ids = (c: { items: Array<{ id: string }> }) => c.items.map((i) => i.id);

/**
 * A second GraphQL server over the app's services, built with other options (yoga alone, no
 * compiled execution): the reference that the app's answers are compared with.
 */
export async function startReferenceServer(app: TestApp, options: GraphqlServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const reference = createGraphqlServer(app.services, options);
  const server = createServer((req, res) => {
    assignRequestId(req, res);
    void reference.yoga(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      reference.cache.close();
    },
  };
}
