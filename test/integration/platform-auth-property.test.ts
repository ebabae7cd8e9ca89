import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors/index.js';
import { bearerTokenOf } from '../../shared/tenancy/authenticate.js';
import { generateToken } from '../../shared/tenancy/token-format.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/** Property tests of the token parser: arbitrary Authorization headers never crash or answer 500. */
let t: TestApp;
let org: TestOrg;
beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Auth properties');
});
afterAll(async () => t?.close());

// What an HTTP client can put in a header value: visible ASCII, spaces and tabs.
const headerChar = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), fc.constant('\t'));
const headerValue = fc.oneof(
  fc.array(headerChar, { maxLength: 80 }).map((cs) => cs.join('')),
  fc.tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', ''), fc.array(fc.constantFrom(' ', '\t'), { maxLength: 3 }), fc.array(headerChar, { maxLength: 60 })).map(
    ([scheme, gap, rest]) => `${scheme}${gap.join('')}${rest.join('')}`,
  ),
  fc.constant(generateToken()).map((token) => `Bearer ${token}`),
);

describe('the Authorization header, arbitrary', () => {
  it('bearerTokenOf returns a token without white space or throws a 401 AppError', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 120 }), { nil: undefined }), (value) => {
        try {
          const token = bearerTokenOf(value);
          expect(token).toMatch(/^[^ \t]+$/);
        } catch (err) {
          expect(isAppError(err) && err.status === 401).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('REST and GraphQL answer 401 (or, for a valid token, not 401), never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(headerValue, async (authorization) => {
        const rest = await t.fetch('/management/v1/models', { headers: { authorization } });
        const graphql = await t.fetch('/graphql', { headers: { authorization, 'content-type': 'application/json' }, rawBody: JSON.stringify({ query: '{ __typename }' }), method: 'POST' });
        await Promise.all([rest.arrayBuffer(), graphql.arrayBuffer()]);
        expect([authorization, rest.status < 500, graphql.status < 500]).toEqual([authorization, true, true]);
      }),
      { numRuns: 120 },
    );
    const valid = await t.fetch('/management/v1/models', { headers: { authorization: `bearer   ${org.manageToken}\t` } });
    expect(valid.status).toBe(200);
  });
});
