import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * Saving never silently overwrites a newer change: a PATCH or a publish that names the version it
 * was made on (If-Match) is refused with 409 once someone else saved, and nothing is written.
 * Without the header writes work as before.
 */

let t: TestApp;
let o: GqlOrg;

beforeAll(async () => {
  t = await startTestApp();
  o = await setupOrg(t);
  await o.m('PUT', '/models/note', { name: 'Note', titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
});
afterAll(async () => {
  await t?.close();
});

const patch = (id: string, fields: Record<string, unknown>, ifMatch?: string, token = o.manage) =>
  t.json(`/management/v1/entries/${id}`, { method: 'PATCH', token, body: { fields }, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

describe('If-Match on entry writes', () => {
  it('a save on the current version succeeds; one on an older version is 409 and writes nothing', async () => {
    const created = await o.m('POST', '/entries', { model: 'note', siteId: o.siteId, fields: { title: 'One' } });
    const v1 = created.versionId;
    const first = await patch(created.id, { title: 'Two (Ada)' }, `"${v1}"`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const v2 = first.body.result.versionId;
    expect(v2).not.toBe(v1);

    // Grace still edits version 1
    const stale = await patch(created.id, { title: 'Two (Grace)' }, `"${v1}"`);
    expect(stale.status).toBe(409);
    expect(stale.body.success).toBe(false);
    expect(stale.body.errors[0]).toContain('VERSION_CONFLICT');
    expect(stale.body.errors[0]).toContain(v2);
    const now = await o.m('GET', `/entries/${created.id}`);
    expect(now.fields.title).toBe('Two (Ada)');
    expect(now.versionId).toBe(v2);

    // unquoted, weak and "*" forms; no header: as before
    expect((await patch(created.id, { title: 'Three' }, v2)).status).toBe(200);
    const v3 = (await o.m('GET', `/entries/${created.id}`)).versionId;
    expect((await patch(created.id, { title: 'Four' }, `W/"${v3}"`)).status).toBe(200);
    expect((await patch(created.id, { title: 'Five' }, '*')).status).toBe(200);
    expect((await patch(created.id, { title: 'Six' })).status).toBe(200);
  });

  it('publishing names the version seen: a newer save meanwhile is 409 and nothing is published', async () => {
    const created = await o.m('POST', '/entries', { model: 'note', siteId: o.siteId, fields: { title: 'Draft' } });
    await patch(created.id, { title: 'Saved by someone else' });
    const refused = await t.json(`/management/v1/entries/${created.id}/publish`, { method: 'POST', token: o.manage, headers: { 'if-match': `"${created.versionId}"` } });
    expect(refused.status).toBe(409);
    expect((await o.m('GET', `/entries/${created.id}`)).status).toBe('DRAFT');
    const current = (await o.m('GET', `/entries/${created.id}`)).versionId;
    const published = await t.json(`/management/v1/entries/${created.id}/publish`, { method: 'POST', token: o.manage, headers: { 'if-match': `"${current}"` } });
    expect(published.status).toBe(200);
    expect(published.body.result.status).toBe('PUBLISHED');
  });

  it('a PUT names the version it replaces: a stale one is 409 and writes nothing; a creation with If-Match is 409', async () => {
    const put = (id: string, title: string, ifMatch?: string, token = o.manage) =>
      t.json(`/management/v1/entries/${id}`, { method: 'PUT', token, body: { model: 'note', siteId: o.siteId, fields: { title } }, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const created = await put('put-check', 'One');
    expect(created.status).toBe(201);
    const v1 = created.body.result.versionId;
    const second = await put('put-check', 'Two', `"${v1}"`);
    expect(second.status).toBe(200);
    const stale = await put('put-check', 'Lost', `"${v1}"`);
    expect(stale.status).toBe(409);
    expect(stale.body.success).toBe(false);
    expect(stale.body.errors[0]).toContain('VERSION_CONFLICT');
    expect((await o.m('GET', '/entries/put-check')).fields.title).toBe('Two');
    expect((await put('put-check', 'x', '"a", "b"')).status).toBe(400);
    const fresh = await put('put-new', 'New', `"${v1}"`);
    expect(fresh.status).toBe(409);
    expect((await t.json('/management/v1/entries/put-new', { token: o.manage })).status).toBe(404);
    // another organization's PUT on the same id makes its own entry, and never sees this one's version
    const other = await t.createOrg('Other PUT');
    expect((await t.json('/management/v1/entries/put-check', { method: 'PUT', token: other.manageToken, body: { model: 'note', siteId: o.siteId, fields: { title: 'x' } }, headers: { 'if-match': `"${second.body.result.versionId}"` } })).status).toBe(409);
    expect((await o.m('GET', '/entries/put-check')).fields.title).toBe('Two');
  });

  it('a schedule names the version seen: a newer save meanwhile is 409 and nothing is scheduled', async () => {
    const created = await o.m('POST', '/entries', { model: 'note', siteId: o.siteId, fields: { title: 'Later' } });
    await patch(created.id, { title: 'Changed by someone else' });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const schedule = (ifMatch: string, token = o.manage) => t.json(`/management/v1/entries/${created.id}/schedule`, { method: 'POST', token, body: { at }, headers: { 'if-match': ifMatch } });
    const refused = await schedule(`"${created.versionId}"`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toContain('VERSION_CONFLICT');
    expect((await o.m('GET', `/entries/${created.id}`)).status).toBe('DRAFT');
    const current = (await o.m('GET', `/entries/${created.id}`)).versionId;
    expect((await schedule('"a", "b"')).status).toBe(400);
    const other = await t.createOrg('Other schedule');
    expect((await schedule(`"${current}"`, other.manageToken)).status).toBe(404);
    const scheduled = await schedule(`"${current}"`);
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.result.status).toBe('SCHEDULED');
  });

  it('a malformed If-Match is 400; another organization cannot learn the entry exists', async () => {
    const created = await o.m('POST', '/entries', { model: 'note', siteId: o.siteId, fields: { title: 'Mine' } });
    const bad = await patch(created.id, { title: 'x' }, '"a", "b"');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/If-Match/);
    const other = await t.createOrg('Other');
    const foreign = await patch(created.id, { title: 'x' }, `"${created.versionId}"`, other.manageToken);
    expect(foreign.status).toBe(404);
    expect((await o.m('GET', `/entries/${created.id}`)).fields.title).toBe('Mine');
  });
});
