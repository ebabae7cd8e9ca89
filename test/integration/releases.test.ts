import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

// Releases: entries published or unpublished together in one transaction, at once or at a
// scheduled time; one blocking entry changes nothing and is named.

let t: TestApp;
let o: GqlOrg;
let other: GqlOrg;

const r = (path: string, o2: { method?: string; body?: unknown; token?: string } = {}) => t.json(`/management/v1/releases${path}`, { token: o.manage, ...o2 });
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);

async function drafts(prefix: string, n: number, model = 'page'): Promise<string[]> {
  const all = ids(prefix, n);
  for (const id of all) await o.m('PUT', `/entries/${id}`, { model, siteId: o.siteId, fields: { title: `Title ${id}` } });
  return all;
}

/**
 * How many entries of `model` a delivery token sees, asked over and over until `stop`; every
 * answer. Each request has variables of its own, so none is answered from the response cache:
 * every one reads the database.
 */
async function watchDelivered(model: string, stop: () => boolean): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; !stop(); i++) {
    const data = await o.d<Record<string, { total: number }>>(`query ($x: String) { ${model}Collection(limit: 1, where: {title: {ne: $x}}) { total } }`, { x: `${Math.random()}-${i}` });
    seen.push(data[`${model}Collection`].total);
  }
  return seen;
}

/**
 * The same count read straight from the entries table, over and over until `stop`: on the
 * production stack, where the pool's other connections read beside the release's transaction
 * (embedded, PGlite is one connection and its answers come without yielding to timers).
 */
async function watchRows(model: string, stop: () => boolean): Promise<number[]> {
  const seen: number[] = [];
  if (t.stack !== 'production') return seen;
  while (!stop()) {
    await new Promise((resolve) => setImmediate(resolve));
    const { rows } = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM entries WHERE org_id = $1 AND model_alias = $2 AND in_delivery', [o.orgId, model]);
    seen.push(rows[0].n);
  }
  return seen;
}

const publishedEvents = async (entryIds: string[]) =>
  (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'entry.published' AND subject = ANY($2::text[])`, [o.orgId, entryIds.map((id) => `entry:${id}`)])).rows[0].n;

beforeAll(async () => {
  t = await startTestApp();
  [o, other] = await Promise.all([setupOrg(t), setupOrg(t)]);
  for (const model of ['page', 'post', 'promo']) await o.m('PUT', `/models/${model}`, { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
  await other.m('PUT', '/models/page', { fields: [{ alias: 'title', type: 'text' }] });
  await other.m('PUT', '/entries/theirs', { model: 'page', siteId: other.siteId, fields: { title: 'Theirs' } });
});
afterAll(async () => {
  await t?.close();
});

describe('a release published at once', () => {
  it('publishes 50 entries in one transaction: concurrent readers see none or all of them', async () => {
    const entries = await drafts('now', 50);
    const created = await r('', { body: { name: 'Launch', entries } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const release = created.body.result;
    expect(release).toMatchObject({ name: 'Launch', status: 'OPEN', scheduledAt: null, problems: null });
    expect(release.entries.map((e: { entryId: string }) => e.entryId)).toEqual(entries);
    expect(release.entries[0].versionId).toBe((await o.m('GET', `/entries/${entries[0]}`)).versionId);

    let done = false;
    const readers = Promise.all([watchDelivered('page', () => done), watchDelivered('page', () => done), watchRows('page', () => done), watchRows('page', () => done)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const published = await r(`/${release.id}/publish`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    done = true;
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.result.status).toBe('PUBLISHED');
    const seen = (await readers).flat();
    expect(new Set(seen), 'a reader saw part of the release').toEqual(new Set([0, 50]));
    // every entry through the single publish path: its event (webhooks, purges) and status
    expect(await publishedEvents(entries)).toBe(50);
    expect((await o.m('GET', `/entries/${entries[49]}`)).status).toBe('PUBLISHED');
    expect((await r(`/${release.id}/publish`, { method: 'POST' })).status).toBe(409);

    // unpublished together, and published again
    const withdrawn = await r(`/${release.id}/unpublish`, { method: 'POST' });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.result.status).toBe('UNPUBLISHED');
    expect((await o.d('{ pageCollection { total } }')).pageCollection.total).toBe(0);
    expect((await r(`/${release.id}/unpublish`, { method: 'POST' })).status).toBe(409);
    expect((await r(`/${release.id}/publish`, { method: 'POST' })).status).toBe(200);
    expect((await o.d('{ pageCollection { total } }')).pageCollection.total).toBe(50);
  });

  it('changes nothing when one entry is invalid, and the 422 names the entry and why', async () => {
    const entries = await drafts('bad', 3, 'post');
    await o.m('PATCH', `/entries/${entries[1]}`, { fields: { title: 'A title far too long for the new rule' } });
    const release = (await r('', { body: { name: 'Blocked', entries } })).body.result;
    // a rule added under existing entries is allowed; the release checks it
    await o.m('PUT', '/models/post', { titleField: 'title', fields: [{ alias: 'title', type: 'text', validations: [{ size: { max: 20 } }] }] });
    const res = await r(`/${release.id}/publish`, { method: 'POST' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toBe('The release cannot be published: nothing was changed.');
    expect(res.body.errors.slice(1)).toHaveLength(1);
    expect(res.body.errors[1]).toMatch(/^entry "bad-01": fields\.title.*size/);
    expect((await o.d('{ postCollection { total } }')).postCollection.total).toBe(0);
    expect(await publishedEvents(entries)).toBe(0);
    expect((await r(`/${release.id}`)).body.result.status).toBe('OPEN');

    // fixed, the release still holds the old version: it says so until the entry is added again
    await o.m('PATCH', `/entries/${entries[1]}`, { fields: { title: 'Short' } });
    const stale = await r(`/${release.id}/publish`, { method: 'POST' });
    expect(stale.status).toBe(422);
    expect(stale.body.errors[1]).toContain('entry "bad-01": changed since it was added');
    const readded = await r(`/${release.id}/entries`, { method: 'POST', body: { entries: [entries[1]] } });
    expect(readded.status).toBe(200);
    expect(readded.body.result.entries.map((e: { entryId: string }) => e.entryId)).toEqual(entries);
    expect((await r(`/${release.id}/publish`, { method: 'POST' })).status).toBe(200);
    expect((await o.d('{ postCollection { total } }')).postCollection.total).toBe(3);
  });

  it('refuses bad input, unknown ids and another organization’s entries and releases', async () => {
    for (const body of [{}, { name: 'x' }, { name: '', entries: ['a'] }, { name: 'x', entries: [] }, { name: 'x', entries: 'a' }, { name: 'x', entries: ['a'], extra: 1 }]) {
      expect((await r('', { body })).status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await r('', { body: { name: 'x', entries: ['now-00', 'nope', 'theirs'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.slice(1)).toEqual(['entries: entry "nope" not found', 'entries: entry "theirs" not found']);
    const mine = (await r('', { body: { name: 'Mine', entries: ['now-00'] } })).body.result;
    for (const path of [`/${mine.id}`, `/${mine.id}/publish`, `/${mine.id}/unpublish`, `/${mine.id}/entries`]) {
      const method = path === `/${mine.id}` ? 'GET' : 'POST';
      const res = await r(path, { method, token: other.manage, body: path.endsWith('/entries') ? { entries: ['theirs'] } : undefined });
      expect(res.status, path).toBe(404);
    }
    expect((await r('', { token: other.manage })).body.result.map((x: { id: string }) => x.id)).not.toContain(mine.id);
    expect((await r(`/${mine.id}`, { token: o.delivery })).status).toBe(403);
    expect((await r(`/${mine.id}/publish`, { method: 'POST', token: o.preview })).status).toBe(403);
    expect((await r(`/${mine.id}/publish`, { method: 'POST', body: { at: 'tomorrow' } })).status).toBe(422);
    expect((await r(`/${mine.id}/publish`, { method: 'POST', body: { when: 'now' } })).status).toBe(400);
    expect((await r('/nope')).status).toBe(404);
  });
});

describe('a scheduled release', () => {
  it('answers 202, tells its status, then goes live in one transaction at its time', async () => {
    const entries = await drafts('sched', 50, 'promo');
    const release = (await r('', { body: { name: 'Scheduled', entries } })).body.result;
    const at = new Date(Date.now() + 1500).toISOString();
    const res = await r(`/${release.id}/publish`, { method: 'POST', body: { at } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.result).toMatchObject({ status: 'SCHEDULED', scheduledAction: 'publish', scheduledAt: at });

    let done = false;
    const readers = Promise.all([watchDelivered('promo', () => done), watchRows('promo', () => done)]);
    const deadline = Date.now() + 15_000;
    let status = 'SCHEDULED';
    while (status === 'SCHEDULED' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await r(`/${release.id}`)).body.result.status;
    }
    done = true;
    expect(status).toBe('PUBLISHED');
    const seen = (await readers).flat();
    expect(seen.every((n) => n === 0 || n === 50), `a reader saw part of the release: ${[...new Set(seen)].join(', ')}`).toBe(true);
    expect(seen).toContain(0);
    expect((await o.d('{ promoCollection { total } }')).promoCollection.total).toBe(50);
    expect(await publishedEvents(entries)).toBe(50);
  });

  it('a scheduled release blocked by an entry becomes FAILED with the problem, and changes nothing', async () => {
    const [entry] = await drafts('gone', 1, 'promo');
    const release = (await r('', { body: { name: 'Doomed', entries: [entry] } })).body.result;
    await o.m('DELETE', `/entries/${entry}`);
    expect((await r(`/${release.id}/publish`, { method: 'POST', body: { at: new Date(Date.now() - 1000).toISOString() } })).status).toBe(202);
    const deadline = Date.now() + 15_000;
    let got = (await r(`/${release.id}`)).body.result;
    while (got.status === 'SCHEDULED' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      got = (await r(`/${release.id}`)).body.result;
    }
    expect(got.status).toBe('FAILED');
    expect(got.problems).toEqual([`entry "${entry}": is deleted`]);
  });
});

describe('cancelling and deleting a release', () => {
  it('cancels a scheduled publish back to OPEN (nothing goes live), then runs it again', async () => {
    const entries = await drafts('cancel', 3, 'post');
    const release = (await r('', { body: { name: 'Cancelled', entries } })).body.result;
    expect((await r(`/${release.id}/publish`, { method: 'POST', body: { at: new Date(Date.now() + 2000).toISOString() } })).status).toBe(202);
    const cancelled = await r(`/${release.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.result).toMatchObject({ status: 'OPEN', scheduledAction: null, scheduledAt: null });
    // past the time it was scheduled for, nothing of it is live
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect((await r(`/${release.id}`)).body.result.status).toBe('OPEN');
    expect(await publishedEvents(entries)).toBe(0);
    const again = await r(`/${release.id}/cancel`, { method: 'POST' });
    expect([again.status, again.body.success]).toEqual([409, false]);
    expect((await r(`/${release.id}/publish`, { method: 'POST' })).body.result.status).toBe('PUBLISHED');
    expect(await publishedEvents(entries)).toBe(3);

    // a scheduled unpublish, cancelled, leaves the release published
    expect((await r(`/${release.id}/unpublish`, { method: 'POST', body: { at: new Date(Date.now() + 60_000).toISOString() } })).status).toBe(202);
    expect((await r(`/${release.id}/cancel`, { method: 'POST' })).body.result).toMatchObject({ status: 'PUBLISHED', scheduledAction: null });
    const audit = await t.json(`/management/v1/audit-log?subjectId=${release.id}`, { token: o.manage });
    expect(audit.body.result.map((x: { action: string; changes: { status: { after: string } } }) => [x.action, x.changes.status.after])).toEqual([
      ['release.cancelled', 'PUBLISHED'],
      ['release.cancelled', 'OPEN'],
    ]);
  });

  it('deletes a release that is not live; a published one is 409 until unpublished; the entries stay', async () => {
    const entries = await drafts('del', 2, 'post');
    const open = (await r('', { body: { name: 'Open', entries } })).body.result;
    const deleted = await r(`/${open.id}`, { method: 'DELETE' });
    expect([deleted.status, deleted.body.result]).toEqual([200, { id: open.id, deleted: true }]);
    expect((await r(`/${open.id}`)).status).toBe(404);
    expect((await r(`/${open.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.json(`/management/v1/entries/${entries[0]}`, { token: o.manage })).status).toBe(200);

    const live = (await r('', { body: { name: 'Live', entries } })).body.result;
    await r(`/${live.id}/publish`, { method: 'POST' });
    const refused = await r(`/${live.id}`, { method: 'DELETE' });
    expect([refused.status, refused.body.success]).toEqual([409, false]);
    expect(refused.body.errors[0]).toMatch(/unpublish it first/);
    expect((await r(`/${live.id}/unpublish`, { method: 'POST', body: { at: new Date(Date.now() + 60_000).toISOString() } })).status).toBe(202);
    expect((await r(`/${live.id}`, { method: 'DELETE' })).status).toBe(409);
    await r(`/${live.id}/cancel`, { method: 'POST' });
    expect((await r(`/${live.id}/unpublish`, { method: 'POST' })).body.result.status).toBe('UNPUBLISHED');
    expect((await r(`/${live.id}`, { method: 'DELETE' })).status).toBe(200);

    const scheduled = (await r('', { body: { name: 'Scheduled then deleted', entries } })).body.result;
    await r(`/${scheduled.id}/publish`, { method: 'POST', body: { at: new Date(Date.now() + 60_000).toISOString() } });
    expect((await r(`/${scheduled.id}`, { method: 'DELETE' })).status).toBe(200);
    const audit = await t.json(`/management/v1/audit-log?action=release.deleted&subjectId=${scheduled.id}`, { token: o.manage });
    expect(audit.body.result[0].changes).toEqual({ name: 'Scheduled then deleted', status: 'SCHEDULED', entries });
  });

  it('refuses another organization, other scopes and unknown ids', async () => {
    const entries = await drafts('foreign', 1, 'post');
    const mine = (await r('', { body: { name: 'Mine', entries } })).body.result;
    await r(`/${mine.id}/publish`, { method: 'POST', body: { at: new Date(Date.now() + 60_000).toISOString() } });
    for (const [method, path] of [['POST', `/${mine.id}/cancel`], ['DELETE', `/${mine.id}`]] as const) {
      const foreign = await r(path, { method, token: other.manage });
      expect([foreign.status, foreign.body.success], path).toEqual([404, false]);
      expect((await r(path, { method, token: o.preview })).status).toBe(403);
      expect((await r(path, { method, token: o.delivery })).status).toBe(403);
    }
    expect((await r('/nope/cancel', { method: 'POST' })).status).toBe(404);
    expect((await r('/nope', { method: 'DELETE' })).status).toBe(404);
    expect((await r('/%00', { method: 'DELETE' })).status).toBe(400);
    expect((await r(`/${mine.id}`)).body.result.status).toBe('SCHEDULED');
  });
});

describe('release permissions per model', () => {
  it('a role publishing posts but not promos: a release of posts runs, one holding a promo is 403 naming it', async () => {
    await o.m('POST', '/roles', { name: 'post-publisher', rules: { models: { post: { read: true, create: true, update: true, publish: true }, promo: { read: true } } } });
    const role = (await o.m('POST', '/tokens', { name: 'post publisher', role: 'post-publisher' })) as { token: string };
    const posts = await drafts('perm-post', 2, 'post');
    const promos = await drafts('perm-promo', 2, 'promo');

    const ok = await r('', { token: role.token, body: { name: 'Posts', entries: posts } });
    expect(ok.status).toBe(201);
    expect((await r(`/${ok.body.result.id}/publish`, { method: 'POST', token: role.token })).body.result.status).toBe('PUBLISHED');

    const mixed = await r('', { token: role.token, body: { name: 'Mixed', entries: [posts[0], ...promos] } });
    expect([mixed.status, mixed.body.success]).toEqual([403, false]);
    expect(mixed.body.errors[0]).toBe(`Your role may not publish the entries "${promos[0]}" (model "promo"), "${promos[1]}" (model "promo").`);

    // a release the manage token made with a promo: the role may read it, not run, cancel, add to or delete it
    const theirs = (await r('', { body: { name: 'Has a promo', entries: [posts[1], promos[0]] } })).body.result;
    expect((await r(`/${theirs.id}`, { token: role.token })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `/${theirs.id}/publish`, undefined],
      ['POST', `/${theirs.id}/publish`, { at: new Date(Date.now() + 60_000).toISOString() }],
      ['POST', `/${theirs.id}/entries`, { entries: [posts[1]] }],
      ['DELETE', `/${theirs.id}`, undefined],
    ] as const) {
      const res = await r(path, { method, token: role.token, body });
      expect([res.status, res.body.errors?.[0]], `${method} ${path}`).toEqual([403, `Your role may not publish the entries "${promos[0]}" (model "promo").`]);
    }
    await r(`/${theirs.id}/publish`, { method: 'POST', body: { at: new Date(Date.now() + 60_000).toISOString() } });
    expect((await r(`/${theirs.id}/cancel`, { method: 'POST', token: role.token })).status).toBe(403);
    // adding a promo to a release of posts is refused too, naming only the promo
    const postsOnly = (await r('', { token: role.token, body: { name: 'Posts only', entries: [posts[0]] } })).body.result;
    const add = await r(`/${postsOnly.id}/entries`, { method: 'POST', token: role.token, body: { entries: [promos[1]] } });
    expect([add.status, add.body.errors[0]]).toEqual([403, `Your role may not publish the entries "${promos[1]}" (model "promo").`]);
    expect((await r(`/${postsOnly.id}`)).body.result.entries.map((e: { entryId: string }) => e.entryId)).toEqual([posts[0]]);
    expect(await publishedEvents(promos)).toBe(0);

    // a role that reads nothing of content may not even read releases
    await o.m('POST', '/roles', { name: 'analytics-only', rules: { settings: ['analytics'] } });
    const analyst = (await o.m('POST', '/tokens', { name: 'analyst', role: 'analytics-only' })) as { token: string };
    expect((await r(`/${theirs.id}`, { token: analyst.token })).status).toBe(403);
  });
});
