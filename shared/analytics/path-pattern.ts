import { badRequest } from '../errors/index.js';

// Path patterns, shared by the `pathPattern` filter and goals: `*` stands for any characters
// within one path segment, `**` for any characters across segments; everything else is literal.
// A pattern is matched against the whole path, which never holds the query string.

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const BAD = /[\u0000-\u001f\u007f?#]/;

/** Checks a pattern as given (a path starting with /, at most 2,048 characters); a 400 naming `name` otherwise. */
export function checkPathPattern(value: string, name: string): string {
  if (!value.startsWith('/') || value.length > 2048 || BAD.test(value) || value.includes('***')) {
    throw badRequest(`${name}: must be a path pattern starting with / (* within a segment, ** across segments; at most 2,048 characters, without query string or fragment).`);
  }
  return value;
}

/**
 * The anchored regular expression (RE2 syntax, which ClickHouse's `match` reads; JavaScript
 * reads it the same way) for a checked pattern. Literal characters are escaped, so a pattern
 * cannot inject regular-expression syntax.
 */
export function pathPatternRegex(pattern: string): string {
  const parts = pattern.split('**').map((chunk) =>
    chunk
      .split('*')
      .map((lit) => lit.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*'),
  );
  return `^${parts.join('.*')}$`;
}
