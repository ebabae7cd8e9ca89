import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../support/event-loop-guard.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * Hostile GraphQL documents from a delivery token: each is refused with a coded error, and no
 * request of them holds the event loop (every tenant's) longer than the abuse bound.
 */
let app: TestApp;
let o: GqlOrg;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
  await o.m('PUT', '/entries/s1', { model: 'story', siteId: o.siteId, fields: { title: 'One' }, status: 'PUBLISHED' });
  // The org's first GraphQL request builds its schema and limit rules: done here, so the bound
  // below measures what a hostile document costs, not the first request of the file.
  await o.q(fanOut(2));
});
afterAll(async () => app?.close());

/** `query { ...F0 }` where each fragment spreads the next twice: 2^levels fields from ~35 bytes a level. */
function fanOut(levels: number, padding = ''): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
  return `query {${padding} ...F0 } ${fragments.join(' ')} fragment F${levels} on Query { __typename }`;
}

describe('fragment fan-out', () => {
  it.each([20, 22, 24, 26, 28, 30])('%i levels: refused with COMPLEXITY_LIMIT_EXCEEDED without blocking the event loop', async (levels) => {
    // The padding makes every text new, so no parse or validation cache answers for it.
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => o.q(fanOut(levels, ' '.repeat(levels))));
    expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body).slice(0, 300)).toBe('COMPLEXITY_LIMIT_EXCEEDED');
    expect(res.body.errors![0].message).toContain(`expands to ${2 ** levels} fields`);
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });

  it('a document that reuses fragments within the limit still runs, with its cost', async () => {
    const res = await o.q(`query { a: storyCollection(limit: 2) { ...Page } b: storyCollection(limit: 3) { ...Page } }
      fragment Page on StoryCollection { total items { ...Story } }
      fragment Story on Story { id title }`);
    expect(res.status).toBe(200);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.a.items).toEqual([{ id: 's1', title: 'One' }]);
    expect(res.body.extensions!.cost).toBe(2 + 3);
  });

  it('a fragment cycle is refused by validation, quickly', async () => {
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => o.q('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'));
    expect(res.body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });
});
