import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBody } from '../../shared/ingest/parse-body.js';
import { tsvLine } from '../../shared/ingest/row-tsv.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { campaignOf } from '../../shared/ingest/campaign.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

/**
 * Property tests of the parsers hostile input reaches first: log lines of every format and
 * GraphQL filters. Whatever arrives, the answer is an accepted or refused line, or a coded
 * error — never a crash, a 500, or an accepted line that ClickHouse cannot store.
 */
let app: TestApp;
let org: AnalyticsOrg;
let gql: GqlOrg;

beforeAll(async () => {
  app = await startTestApp();
  org = await createAnalyticsOrg(app);
  await createDistribution(app, org, 'prop');
  gql = await setupOrg(app);
  await gql.m('PUT', '/models/story', {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text' },
      { alias: 'rank', type: 'number' },
      { alias: 'day', type: 'datetime' },
      { alias: 'live', type: 'boolean' },
    ],
  });
  await gql.m('PUT', '/entries/s1', { model: 'story', siteId: gql.siteId, fields: { title: 'One', rank: 1 }, status: 'PUBLISHED' });
});
afterAll(async () => app?.close());

// Values a log field may carry, sane and not: any JSON scalar, huge and negative numbers, dates
// real and impossible, NULs and separators in strings.
const oddText = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '\u0000', '\t', '\n', '-', '%', '1e30', '2026-02-30T00:00:00Z', '0000-01-01', 'NaN'));
const fieldValue = fc.oneof(
  oddText,
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(1e30, -1, 2 ** 53, 4_294_967_296, 0.5, null, true),
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: 0, max: 2 ** 42 }).map((ms) => Date.now() - ms),
);
const canonicalLine = fc
  .record(
    {
      timestamp: fc.oneof(fieldValue, fc.constant(new Date().toISOString())),
      clientIp: fc.oneof(fieldValue, fc.ipV4(), fc.ipV6()),
      method: fc.oneof(fieldValue, fc.constantFrom('GET', 'post')),
      host: fc.oneof(fieldValue, fc.domain()),
      path: fc.oneof(fieldValue, fc.webPath()),
      status: fc.oneof(fieldValue, fc.integer({ min: 100, max: 599 })),
      bytes: fc.oneof(fieldValue, fc.nat()),
      serveTimeMs: fc.oneof(fieldValue, fc.nat({ max: 60_000 })),
      cacheStatus: fieldValue,
      referer: fieldValue,
      userAgent: fieldValue,
      country: fieldValue,
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.stringify(record));
const combinedLine = fc
  .tuple(fc.oneof(fc.ipV4(), oddText), fc.oneof(fc.constant('24/Nov/2026:10:00:00 +0000'), fc.constant('30/Feb/2026:10:00:00 +0000'), oddText), oddText, fc.oneof(fc.integer({ min: 100, max: 599 }), fc.integer()), fc.oneof(fc.nat(), fc.constant(-5)), oddText)
  .map(([ip, time, path, status, bytes, agent]) => `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} ${bytes} "-" "${agent}"`);
const anyLine = fc.oneof(canonicalLine, combinedLine, fc.string({ maxLength: 200 }), fc.json());
const body = fc.array(anyLine, { maxLength: 12 }).map((lines) => lines.join('\n'));

/** What the cdn_logs columns can hold: an accepted record must fit, or its batch never inserts. */
function insertable(r: ReturnType<typeof parseBody>['records'][number]): boolean {
  return (
    Number.isFinite(r.timestampMs) && r.timestampMs >= 0 && r.timestampMs < Date.UTC(2106, 0, 1) &&
    Number.isInteger(r.status) && r.status >= 100 && r.status <= 599 &&
    Number.isSafeInteger(r.bytes) && r.bytes >= 0 &&
    Number.isInteger(r.serveTimeMs) && r.serveTimeMs >= 0 && r.serveTimeMs <= 4_294_967_295 &&
    (r.country === undefined || /^[A-Z]{2}$/.test(r.country))
  );
}

describe('log lines, arbitrary', () => {
  it('parseBody never throws; every record it accepts fits the columns and makes one 28-column TSV line', () => {
    fc.assert(
      fc.property(body, (text) => {
        const parsed = parseBody(text, { retentionDays: 395 });
        for (const r of parsed.records) {
          expect(insertable(r), JSON.stringify(r)).toBe(true);
          const line = tsvLine(r, 'org', 'dist', { clientIp: r.clientIp, country: 'NL', continent: 'EU', refererHost: '', agent: { device: '', browser: '', os: '', bot: '' }, visitor: '0', entryId: '', campaign: campaignOf(r.query) });
          expect(line.split('\t')).toHaveLength(28);
          expect(line).not.toMatch(/[\n\r]/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('through the endpoint: 200 or a 4xx, never 5xx, and every accepted line is counted once', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const res = await pushLogs(app, org.ingestToken, 'prop', text);
        expect([text, res.status < 500]).toEqual([text, true]);
        if (res.status === 200) accepted += res.body.result.accepted as number;
      }),
      { numRuns: 60 },
    );
    expect(accepted).toBeGreaterThan(0); // the generator makes valid lines too
    await waitForSpool(app, org.orgId);
    const [row] = await app.services.analytics.query<{ n: number }>('SELECT count() AS n FROM cdn_logs WHERE org_id = {org:String}', { org: org.orgId });
    expect(Number(row.n)).toBe(accepted);
  }, 120_000);
});

// Filters of the model: each field's operators with values mostly of its type (so most filters
// reach SQL), sometimes of another; strings with NULs, lists long and short; nested and/or.
const textValue = fc.oneof(oddText, fc.string({ maxLength: 8 }).map((t) => `${t}\u0000${t}`));
const typed = {
  title: textValue,
  id: textValue,
  rank: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  day: fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  live: fc.boolean(),
} as const;
const scalar = fc.oneof(oddText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const LIST_OPS = ['in', 'notIn', 'startsWithAny'];
const opsOf = (value: fc.Arbitrary<unknown>) =>
  fc.dictionary(
    fc.constantFrom('eq', 'ne', 'in', 'notIn', 'contains', 'notContains', 'startsWith', 'endsWith', 'startsWithAny', 'lt', 'lte', 'gt', 'gte', 'exists'),
    fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: scalar }, { weight: 1, arbitrary: fc.constant(Array.from({ length: 1200 }, (_, i) => `v${i}`)) }),
    { maxKeys: 2 },
  ).map((o) => Object.fromEntries(Object.entries(o).map(([op, v]) => [op, LIST_OPS.includes(op) && !Array.isArray(v) ? [v] : op === 'exists' ? Boolean(v) : v])));
const fieldFilter = fc.oneof(...(Object.entries(typed) as Array<[string, fc.Arbitrary<unknown>]>).map(([field, value]) => opsOf(value).map((o) => ({ [field]: o }))));
const filter: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fieldFilter,
    fc.record({ and: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { maxLength: 3 }) }),
  ),
})).node;

describe('GraphQL filters, arbitrary', () => {
  it('answer data or coded errors, never 5xx or INTERNAL_SERVER_ERROR', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(filter, async (where) => {
        const res = await gql.q('query($w: StoryFilter) { storyCollection(where: $w, limit: 5) { total items { id } } }', { w: where });
        const codes = (res.body.errors ?? []).map((e) => e.extensions?.code);
        expect([JSON.stringify(where).slice(0, 300), res.status < 500, codes.includes('INTERNAL_SERVER_ERROR')]).toEqual([JSON.stringify(where).slice(0, 300), true, false]);
        if (res.body.data?.storyCollection) answered++;
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(10); // filters that reach SQL, not only refusals
  }, 120_000);
});
