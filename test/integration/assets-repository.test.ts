import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAssetsByIds } from '../../shared/assets/asset-repository.js';
import { loadAssetUrlContext } from '../../shared/assets/url-context.js';
import { startTestApp, type TestApp } from '../support/harness.js';

describe('asset repository helpers for the GraphQL resolvers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ workers: false });
  });
  afterAll(async () => app?.close());

  it('loads live assets by id within one org, and the URL context of an org', async () => {
    const [org, other] = [await app.createOrg(), await app.createOrg()];
    const jpeg = new Uint8Array(await readFile(new URL('../fixtures/images/the-mouse.jpg', import.meta.url)));
    const upload = async (token: string) => (await app.json('/management/v1/assets', { method: 'POST', token, rawBody: jpeg })).body.result.id as string;
    const [a, b, foreign] = [await upload(org.manageToken), await upload(org.manageToken), await upload(other.manageToken)];
    await app.json(`/management/v1/assets/${b}`, { method: 'DELETE', token: org.manageToken });
    const found = await findAssetsByIds(app.services.db, org.orgId, [a, b, foreign, 'nope']);
    expect([...found.keys()]).toEqual([a]);
    expect(found.get(a)).toMatchObject({ id: a, orgId: org.orgId, type: 'IMAGE', width: 3840, height: 2400 });
    expect((await findAssetsByIds(app.services.db, org.orgId, [])).size).toBe(0);

    await app.json('/management/v1/image-presets/card', { method: 'PUT', token: org.manageToken, body: { width: 10 } });
    const ctx = await loadAssetUrlContext(app.services, org.orgId);
    expect(ctx.baseUrl).toBe(app.baseUrl);
    expect([...ctx.presets.entries()]).toEqual([['card', { width: 10 }]]);
    expect((await loadAssetUrlContext(app.services, other.orgId)).presets.size).toBe(0);
  });
});
