import { describe, expect, it } from 'vitest';
import { issuerProblem } from './oidc-client.js';
import { checkedReturnTo } from './return-to.js';

describe('issuerProblem', () => {
  it('wants https unless http issuers are allowed, and no credentials, query or fragment', () => {
    expect(issuerProblem('https://idp.example.com/realms/a', { allowHttp: false })).toBeNull();
    expect(issuerProblem('http://idp.example.com', { allowHttp: false })).toMatch(/an https URL \(SSO_ALLOW_HTTP_ISSUERS=true/);
    expect(issuerProblem('http://idp.example.com', { allowHttp: true })).toBeNull();
    expect(issuerProblem('ftp://idp.example.com', { allowHttp: true })).toMatch(/http\(s\)/);
    expect(issuerProblem('https://u:p@idp.example.com', { allowHttp: false })).toMatch(/credentials/);
    expect(issuerProblem('https://idp.example.com/?a=1', { allowHttp: false })).toMatch(/query/);
  });
});

describe('checkedReturnTo', () => {
  const base = 'https://cms.example.com';
  it('keeps paths and URLs of this deployment, as a path', () => {
    expect(checkedReturnTo(undefined, base)).toBe('/auth/me');
    expect(checkedReturnTo('/studio/entries?x=1#top', base)).toBe('/studio/entries?x=1#top');
    expect(checkedReturnTo('https://cms.example.com/studio', base)).toBe('/studio');
  });
  it('refuses other origins, protocol-relative and backslash tricks, and other schemes', () => {
    for (const bad of ['https://evil.example.com/', '//evil.example.com', '/\\evil.example.com', 'javascript:alert(1)', 'http://cms.example.com/', 'studio']) {
      expect(() => checkedReturnTo(bad, base), bad).toThrow(/returnTo/);
    }
  });
});
