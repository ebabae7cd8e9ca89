import { describe, expect, it } from 'vitest';
import { candidatesOf, compilePattern, pathSegments, patternProblem } from './url-patterns.js';

describe('URL patterns', () => {
  it('takes literal segments and placeholders with exactly one entry key', () => {
    expect(patternProblem('/articles/{slug}')).toBeNull();
    expect(patternProblem('/{section}/{sub}/{id}')).toBeNull();
    expect(patternProblem('/e/{externalId}')).toBeNull();
    expect(patternProblem('/{slug}')).toBeNull();
    expect(patternProblem('articles/{slug}')).toBe('must start with "/"');
    expect(patternProblem('/articles/{section}')).toBe('needs exactly one of {slug}, {id} or {externalId}');
    expect(patternProblem('/{slug}/{id}')).toBe('needs exactly one of {slug}, {id} or {externalId}');
    expect(patternProblem('/a//{slug}')).toBe('has an empty segment');
    expect(patternProblem('/{slug}/')).toBe('has an empty segment');
    expect(patternProblem('/a-{slug}')).toBe('segment "a-{slug}" is neither literal text nor one {placeholder}');
    expect(patternProblem('/a?b/{slug}')).toMatch(/neither literal/);
    expect(patternProblem(`/${Array.from({ length: 17 }, () => 'a').join('/')}/{slug}`)).toBe('at most 16 segments');
  });

  it('reads a path as a site sees it: no query or fragment, no trailing slash, percent-decoded', () => {
    expect(pathSegments('/articles/hello?utm=1#top')).toEqual(['articles', 'hello']);
    expect(pathSegments('/articles/hello/')).toEqual(['articles', 'hello']);
    expect(pathSegments('/caf%C3%A9/x%2Fy')).toEqual(['café', 'x/y']);
    expect(pathSegments('/bad%E0%A4%A')).toEqual(['bad%E0%A4%A']);
    expect(pathSegments('/')).toEqual(['']);
    expect(pathSegments('*')).toEqual([]);
  });

  it('gives every matching reading in the patterns\' order', () => {
    const patterns = [
      compilePattern('s1', { pattern: '/articles/{slug}', model: 'article' }),
      compilePattern('s1', { pattern: '/{section}/{slug}' }),
      compilePattern('s2', { pattern: '/id/{id}' }),
    ];
    expect(candidatesOf(patterns, pathSegments('/articles/Hello'))).toEqual([
      { siteId: 's1', model: 'article', key: 'slug', value: 'Hello' },
      { siteId: 's1', model: null, key: 'slug', value: 'Hello' },
    ]);
    expect(candidatesOf(patterns, pathSegments('/id/abc'))).toEqual([
      { siteId: 's1', model: null, key: 'slug', value: 'abc' },
      { siteId: 's2', model: null, key: 'id', value: 'abc' },
    ]);
    expect(candidatesOf(patterns, pathSegments('/a/b/c'))).toEqual([]);
    expect(candidatesOf(patterns, pathSegments('/'))).toEqual([]);
    expect(candidatesOf(patterns, pathSegments('//x'))).toEqual([]); // an empty segment is no placeholder's value
  });
});
