import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/http/openapi/index.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/**
 * `GET /admin/v1/organizations` answers only fields its OpenAPI schema declares, so a generated
 * client sees every field (generators drop or reject undeclared ones).
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('GET /admin/v1/organizations', () => {
  it('every field of an organization is declared in the Organization schema', async () => {
    await app.createOrg('Declared');
    const list = await app.json('/admin/v1/organizations', { token: app.adminToken });
    expect(list.status).toBe(200);
    const doc = buildOpenApiDocument('http://x') as { components: { schemas: { Organization: { properties: Record<string, unknown> } } } };
    const declared = Object.keys(doc.components.schemas.Organization.properties).sort();
    const answered = [...new Set((list.body.result as Record<string, unknown>[]).flatMap((o) => Object.keys(o)))].sort();
    expect(answered).toEqual(expect.arrayContaining(['schemaVersion', 'contentVersion']));
    expect(answered.filter((k) => !declared.includes(k))).toEqual([]);
  });
});
