import { describe, expect, it } from 'vitest';
import { checkPathPattern, pathPatternRegex } from './path-pattern.js';

const matches = (pattern: string, path: string) => new RegExp(pathPatternRegex(pattern)).test(path);

describe('path patterns', () => {
  it('* stays within a segment, ** crosses segments, the rest is literal', () => {
    expect(matches('/articles/*', '/articles/launch')).toBe(true);
    expect(matches('/articles/*', '/articles/a/b')).toBe(false);
    expect(matches('/articles/**', '/articles/a/b')).toBe(true);
    expect(matches('/img/*.jpg', '/img/hero.jpg')).toBe(true);
    expect(matches('/img/*.jpg', '/img/heroXjpg')).toBe(false);
    expect(matches('/a+b/(x)', '/a+b/(x)')).toBe(true);
    expect(matches('/a+b/(x)', '/aab/x')).toBe(false);
    expect(matches('/thank-you', '/thank-you/more')).toBe(false);
    expect(matches('/**/pricing', '/en/articles/pricing')).toBe(true);
  });
  it('refuses what is not a path pattern', () => {
    for (const bad of ['pricing', '/a?b', '/a#b', '/a\nb', '/***', `/${'a'.repeat(2048)}`]) {
      expect(() => checkPathPattern(bad, 'pathPattern')).toThrow(/^pathPattern: /);
    }
    expect(checkPathPattern('/a/**', 'x')).toBe('/a/**');
  });
});
