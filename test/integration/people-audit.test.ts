import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../shared/events/record-events.js';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * The audit log: written in the transaction of each change (events, settings triggers, members),
 * naming the actor (member or token), the request and what changed; filtered, paged, exported as
 * NDJSON; append-only with a retention; a rolled-back write leaves no row.
 */

let t: TestApp;
let o: GqlOrg;
const PASSWORD = 'correct horse battery';

async function member(role: string) {
  const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: o.manage, body: { email, role } });
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  return { token: signed.body.result.token as string, id: signed.body.result.member.id as string, email, invitationId: invited.body.result.id as string };
}

const audit = (query: string, token = o.manage) => t.json(`/management/v1/audit-log?${query}`, { token });

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  o = await setupOrg(t);
  await o.m('PUT', '/models/article', { name: 'Article', titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'body', type: 'text' }] });
});

afterAll(async () => {
  await t?.close();
});

describe('what is recorded', () => {
  it('invitation, joining and an editor’s publication, each with its actor, request and changes', async () => {
    const editor = await member('editor');
    const invited = await audit(`action=member.invited&subjectId=${editor.invitationId}`);
    expect(invited.status).toBe(200);
    expect(invited.body.result).toHaveLength(1);
    expect(invited.body.result[0]).toMatchObject({
      actor: { type: 'token', name: 'initial manage token' },
      subject: { type: 'invitation', id: editor.invitationId },
      changes: { email: editor.email, role: 'editor' },
    });
    const joined = await audit(`action=member.joined&subjectId=${editor.id}`);
    expect(joined.body.result[0].actor).toEqual({ type: 'member', id: editor.id, name: editor.email });

    const res = await t.fetch('/management/v1/entries/e1', { method: 'PUT', token: editor.token, body: { model: 'article', siteId: o.siteId, fields: { title: 'Hello', body: 'World' } }, headers: { 'user-agent': 'audit-test/1', 'x-request-id': 'req-audit-0001' } });
    expect(res.status).toBe(201);
    await t.json('/management/v1/entries/e1/publish', { method: 'POST', token: editor.token, headers: { 'x-request-id': 'req-audit-0002' } });

    const rows = await audit('subjectType=entry&subjectId=e1');
    expect(rows.body.result.map((r: { action: string }) => r.action)).toEqual(['entry.published', 'entry.created']);
    const [published, created] = rows.body.result;
    expect(created).toMatchObject({
      actor: { type: 'member', id: editor.id, name: editor.email },
      requestId: 'req-audit-0001',
      userAgent: 'audit-test/1',
      changes: { fields: ['title', 'body'], set: ['model', 'siteId', 'fields'] },
    });
    expect(created.clientAddress).toMatch(/127\.0\.0\.1/);
    expect(published).toMatchObject({ requestId: 'req-audit-0002', actor: { type: 'member', id: editor.id } });

    // the version history names the member too
    const versions = await t.json('/management/v1/entries/e1/versions', { token: o.manage });
    expect(versions.body.result[0].savedBy).toEqual({ type: 'member', id: editor.id, name: editor.email });
  });

  it("an author's refused publication and a rolled-back write leave no row", async () => {
    const author = await member('author');
    expect((await t.json('/management/v1/entries/a1', { method: 'PUT', token: author.token, body: { model: 'article', siteId: o.siteId, fields: { title: 'Draft' } } })).status).toBe(201);
    expect((await t.json('/management/v1/entries/a1/publish', { method: 'POST', token: author.token })).status).toBe(403);
    const rows = await audit('subjectId=a1');
    expect(rows.body.result.map((r: { action: string }) => r.action)).toEqual(['entry.created']);

    const count = async () => Number((await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE org_id = $1', [o.orgId])).rows[0].n);
    const before = await count();
    await expect(
      t.services.actor.run({ type: 'token', id: 'x', name: 'rollback test' }, () =>
        t.services.db.transaction(async (tx) => {
          await recordEvents(tx, o.orgId, [{ type: 'model.changed', subject: 'model:article', model: 'article', data: {} }]);
          await tx.query("UPDATE organizations SET allowed_origins = ARRAY['https://rolled.example'] WHERE id = $1", [o.orgId]);
          throw new Error('fails after writing');
        }),
      ),
    ).rejects.toThrow('fails after writing');
    expect(await count()).toBe(before);
    // a failing API write too: a token with an invalid scope is refused before anything is written
    expect((await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'bad', scopes: ['nope'] } })).status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('tokens, webhooks and settings: names of what changed, before/after for settings, never a secret', async () => {
    const created = await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'ci token', scopes: ['preview'] } });
    await t.json(`/management/v1/tokens/${created.body.result.id}`, { method: 'DELETE', token: o.manage });
    const tokenRows = await audit(`subjectType=token&subjectId=${created.body.result.id}`);
    expect(tokenRows.body.result.map((r: { action: string }) => r.action)).toEqual(['token.revoked', 'token.created']);
    expect(tokenRows.body.result[1].changes).toEqual({ fields: ['id', 'name', 'publishable', 'scopes'] });

    await t.json('/management/v1/allowed-origins', { method: 'PUT', token: o.manage, body: { allowedOrigins: ['https://www.example.com'] } });
    const settings = await audit('subjectType=organization');
    expect(settings.body.result[0]).toMatchObject({ action: 'organization.changed', changes: { allowed_origins: { before: null, after: ['https://www.example.com'] } } });

    const hook = await t.json('/management/v1/webhooks', { token: o.manage, body: { url: 'http://127.0.0.1:9/hook', events: ['entry.published'] } });
    expect(hook.status).toBe(201);
    const hookRows = await audit(`subjectType=webhook&subjectId=${hook.body.result.id}`);
    expect(hookRows.body.result[0].action).toBe('webhook.created');
    const text = JSON.stringify(hookRows.body.result);
    expect(hookRows.body.result[0].changes.fields).toContain('secret');
    const { rows } = await t.services.db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE org_id = $1 AND id = $2', [o.orgId, hook.body.result.id]);
    expect(text).not.toContain(rows[0].secret);
  });
});

describe('reading the log', () => {
  it('filters by actor, action family, subject and time; pages; exports NDJSON; other organizations see nothing', async () => {
    const editor = await member('editor');
    for (const id of ['f1', 'f2', 'f3']) await t.json(`/management/v1/entries/${id}`, { method: 'PUT', token: editor.token, body: { model: 'article', siteId: o.siteId, fields: { title: id } } });
    const mine = await audit(`actor=${editor.id}&action=entry.*&pageSize=2`);
    expect(mine.body.resultInfo).toMatchObject({ totalCount: 3, pageSize: 2, hasNextPage: true });
    expect(mine.body.result.map((r: { subject: { id: string } }) => r.subject.id)).toEqual(['f3', 'f2']);
    const future = await audit(`actor=${editor.id}&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.body.result).toEqual([]);
    const past = await audit(`actor=${editor.id}&action=entry.created&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(past.body.resultInfo.totalCount).toBe(3);
    expect((await audit('action=not a family')).status).toBe(400);
    expect((await audit('whatever=1')).status).toBe(400);

    const exported = await t.fetch(`/management/v1/audit-log/export?actor=${editor.id}`, { token: o.manage });
    expect(exported.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = (await exported.text()).trim().split('\n').map((l) => JSON.parse(l) as { action: string });
    expect(lines.map((l) => l.action)).toEqual(['member.joined', 'session.created', 'entry.created', 'entry.created', 'entry.created']);

    const other = await t.createOrg('Other');
    const theirs = await t.json(`/management/v1/audit-log?actor=${editor.id}`, { token: other.manageToken });
    expect(theirs.body.result).toEqual([]);
    expect((await audit('', editor.token)).status).toBe(403); // an editor has no members area
  });

  it('is append-only, and rows past the retention are deleted', async () => {
    await expect(t.services.db.query("UPDATE audit_log SET action = 'forged' WHERE org_id = $1", [o.orgId])).rejects.toThrow(/append-only/);
    await t.services.db.query(
      `INSERT INTO audit_log (org_id, at, actor_type, action, subject_type, subject_id) VALUES ($1, now() - interval '3 days', 'system', 'entry.saved', 'entry', 'old')`,
      [o.orgId],
    );
    expect((await audit('subjectId=old')).body.result).toHaveLength(1);
    expect((await t.json('/management/v1/audit-log/settings', { token: o.manage })).body.result).toEqual({ retentionDays: 365 });
    const set = await t.json('/management/v1/audit-log/settings', { method: 'PUT', token: o.manage, body: { retentionDays: 2 } });
    expect(set.status).toBe(200);
    expect((await audit('subjectId=old')).body.result).toEqual([]);
    const left = await t.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE org_id = $1 AND subject_id = 'old'", [o.orgId]);
    expect(left.rows[0].n).toBe(0);
    const change = await audit('subjectType=organization&pageSize=1');
    expect(change.body.result[0].changes).toEqual({ audit_retention_days: { before: 365, after: 2 } });
  });
});
