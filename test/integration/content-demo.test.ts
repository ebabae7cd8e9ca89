import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { demoBanner } from '../../shared/demo/demo-banner.js';
import { seedDemo, type DemoInfo } from '../../shared/demo/seed-demo.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { interceptDb } from '../support/intercept-db.js';

let t: TestApp;
let demo: DemoInfo;
const slug = `demo-${randomBase62(8).toLowerCase()}`;

beforeAll(async () => {
  t = await startTestApp();
  demo = await seedDemo(t.services, { slug });
});
afterAll(async () => {
  await t?.close();
});

describe('first-start demo', () => {
  it('creates an organization with models, a dozen entries, an image, a list and a distribution', async () => {
    expect(demo.created).toBe(true);
    const m = (p: string) => t.json(`/management/v1${p}`, { token: demo.manageToken });
    const models = (await m('/models')).body.result.map((x: { alias: string }) => x.alias);
    expect(models).toEqual(['article', 'category', 'event']);
    const types = new Set((await m('/models/article')).body.result.fields.map((f: { type: string }) => f.type));
    for (const type of ['text', 'richtext', 'richcontent', 'media', 'section', 'author', 'tag', 'reference', 'number', 'boolean', 'url', 'json']) expect(types).toContain(type);
    const counts = await t.services.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM entries WHERE org_id = $1 AND in_preview GROUP BY status ORDER BY status',
      [demo.orgId],
    );
    expect(counts.rows).toEqual([
      { status: 'DRAFT', n: 1 },
      { status: 'EDITED', n: 1 },
      { status: 'PUBLISHED', n: 10 },
    ]);
    const article = (await m('/entries/article-1')).body.result;
    expect(article.fields.hero).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(article.metrics.imageCount).toBe(2);
    expect((await m('/lists/front-page')).body.result.entries).toHaveLength(3);
    expect((await m('/sections/news')).body.result.mediaIds).toEqual([article.fields.hero]);
    const dist = await t.services.db.query('SELECT id FROM distributions WHERE org_id = $1', [demo.orgId]);
    expect(dist.rows).toEqual([{ id: demo.distributionId }]);
  });

  it('is idempotent: a second start finds the org and returns the same tokens', async () => {
    const again = await seedDemo(t.services, { slug });
    expect(again).toMatchObject({ created: false, orgId: demo.orgId, deliveryToken: demo.deliveryToken, manageToken: demo.manageToken });
    const n = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations WHERE slug = $1', [slug]);
    expect(n.rows[0].n).toBe(1);
    const file = path.join(t.services.config.dataDir, `demo-tokens-${slug}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Without the token file (another data dir), new tokens are issued for the same org.
    await rm(file);
    const fresh = await seedDemo(t.services, { slug });
    expect(fresh.orgId).toBe(demo.orgId);
    expect(fresh.deliveryToken).not.toBe(demo.deliveryToken);
    const ok = await t.json('/management/v1/models', { token: fresh.manageToken });
    expect(ok.status).toBe(200);
  });

  it('a seeding that failed part-way is done again from scratch at the next start', async () => {
    const halfSlug = `demo-${randomBase62(8).toLowerCase()}`;
    let entryInserts = 0;
    const crashing = interceptDb(t.services.db, (sql) => {
      if (sql.trimStart().startsWith('INSERT INTO entries') && ++entryInserts === 5) throw new Error('crashed while seeding');
    });
    await expect(seedDemo({ ...t.services, db: crashing }, { slug: halfSlug })).rejects.toThrow('crashed while seeding');
    const orgs = () => t.services.db.query<{ id: string }>('SELECT id FROM organizations WHERE slug = $1', [halfSlug]);
    const [half] = (await orgs()).rows;
    const again = await seedDemo(t.services, { slug: halfSlug });
    expect(again).toMatchObject({ created: true });
    expect((await orgs()).rows).toEqual([{ id: again.orgId }]);
    expect(again.orgId).not.toBe(half.id);
    const { rows } = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM entries WHERE org_id = $1 AND in_preview', [again.orgId]);
    expect(rows[0].n).toBe(12);
    expect((await t.json('/management/v1/models', { token: again.manageToken })).status).toBe(200);
  });

  it('the banner shows the tokens and a curl command with the query', () => {
    const text = demoBanner(demo, 'http://localhost:3000').join('\n');
    expect(text).toContain(`delivery token: ${demo.deliveryToken}`);
    expect(text).toContain(`curl -s http://localhost:3000/graphql -H 'authorization: Bearer ${demo.deliveryToken}'`);
    expect(text).toContain('articleCollection(limit: 5');
    expect(text).toContain(`analytics:      ${demo.analyticsToken}`);
    expect(text).toContain(`project:        ${demo.projectId}`);
    expect(text).toContain(`curl -s http://localhost:3000/api/v1/projects/${demo.projectId}/distributions/demo-cdn/analytics -H 'authorization: Bearer ${demo.analyticsToken}'`);
  });

  it('the printed analytics call answers with the printed token, project and distribution', async () => {
    const res = await t.json(`/api/v1/projects/${demo.projectId}/distributions/${demo.distributionId}/analytics`, { token: demo.analyticsToken });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it('the printed query runs with the delivery token', async () => {
    const res = await t.json('/graphql', { token: demo.deliveryToken, body: { query: demo.query } });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const items = res.body.data.articleCollection.items;
    expect(res.body.data.articleCollection.total).toBe(6);
    expect(items[0]).toMatchObject({ category: { name: expect.any(String) } });
    expect(items.find((i: { id: string }) => i.id === 'article-6').title).toBe('Open data for cities');
  });

  it('pushes a day of sample traffic through the ingest path, visible in the analytics endpoints', async () => {
    const analytics = await t.createToken(demo.manageToken, ['analytics']);
    const { rows } = await t.services.db.query<{ project_id: string }>('SELECT project_id FROM distributions WHERE org_id = $1 AND id = $2', [
      demo.orgId,
      demo.distributionId,
    ]);
    const url = `/api/v1/projects/${rows[0].project_id}/distributions/${demo.distributionId}/analytics`;
    let result: { hits: number; misses: number; totalBytes: number } | undefined;
    for (let i = 0; i < 120; i++) {
      const res = await t.json(url, { token: analytics });
      expect(res.status).toBe(200);
      result = res.body.result;
      if (result!.hits + result!.misses === 2000) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(result!.hits + result!.misses).toBe(2000);
    expect(result!.hits).toBeGreaterThan(result!.misses);
    expect(result!.totalBytes).toBeGreaterThan(0);
    // the site's /{section}/{slug} pages are counted per entry: three of the seven sample paths are articles
    const entries = await t.json(`${url}/entries`, { token: analytics });
    expect(entries.status).toBe(200);
    const found = (entries.body.result.entries as Array<{ title: string; model: string; requests: number }>).map((e) => e.title).sort();
    expect(found).toEqual(['Open data for cities (updated)', 'Poetry of numbers', 'The first compiler']); // titles of the current versions
    expect(entries.body.result.requests).toBeGreaterThan(600);
  });
});

describe("the demo organization's Studio sign-in link", () => {
  it('is printed while nobody has joined; its invitation makes the owner who signs in; then it is gone', async () => {
    const fresh = await seedDemo(t.services, { slug });
    expect(fresh.ownerInvitation).toMatch(/\S{20,}/);
    const text = demoBanner(fresh, 'http://localhost:3000').join('\n');
    expect(text).toContain(`http://localhost:3000/studio/accept#token=${fresh.ownerInvitation}`);
    expect(text).toContain('owner@demo.example');
    const accepted = await t.json('/auth/invitations/accept', { body: { token: fresh.ownerInvitation, password: 'a demo password' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.result).toMatchObject({ email: 'owner@demo.example', organizationId: fresh.orgId, role: 'owner' });
    const signed = await t.json('/auth/sign-in', { body: { email: 'owner@demo.example', password: 'a demo password', organization: slug } });
    expect(signed.status).toBe(200);
    expect((await t.json('/management/v1/entries/article-1', { token: signed.body.result.token })).status).toBe(200);
    // someone has joined: no new invitation, the banner points at the Studio
    const later = await seedDemo(t.services, { slug });
    expect(later.ownerInvitation).toBeNull();
    expect(demoBanner(later, 'http://localhost:3000').join('\n')).toContain('Studio: http://localhost:3000/studio');
    // the link works once
    expect((await t.json('/auth/invitations/accept', { body: { token: fresh.ownerInvitation, password: 'a demo password' } })).status).toBe(401);
  });
});
