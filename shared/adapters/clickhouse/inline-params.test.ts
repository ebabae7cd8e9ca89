import { describe, expect, it } from 'vitest';
import { inlineParams, stringLiteral } from './inline-params.js';

describe('inlineParams', () => {
  it('writes a String as a quoted literal and other types as a CAST of their text', () => {
    expect(inlineParams('SELECT {a:String}, {n:UInt32}, {ids:Array(String)}, {d:Date}', { a: 'x', n: 7, ids: ['p', 'q'], d: '2026-01-02' })).toBe(
      "SELECT 'x', CAST('7' AS UInt32), CAST('[\\'p\\',\\'q\\']' AS Array(String)), CAST('2026-01-02' AS Date)",
    );
  });

  it('escapes quotes, backslashes and NUL, and leaves a value that looks like a placeholder alone', () => {
    expect(stringLiteral("a'b\\c\0d")).toBe("'a\\'b\\\\c\\0d'");
    expect(inlineParams('SELECT {a:String}, {b:String}', { a: '{b:String}', b: "'; DROP TABLE cdn_logs; --" })).toBe(
      "SELECT '{b:String}', '\\'; DROP TABLE cdn_logs; --'",
    );
  });

  it('refuses a placeholder without a value and a number that is not finite', () => {
    expect(() => inlineParams('SELECT {a:String}', {})).toThrow('query parameter a is not set');
    expect(() => inlineParams('SELECT {a:String}', undefined)).toThrow('query parameter a is not set');
    expect(() => inlineParams('SELECT {n:Int64}', { n: Number.NaN })).toThrow('not a finite number');
  });

  it('leaves statements without placeholders (and map literals) as they are', () => {
    expect(inlineParams("SELECT map('k', 1), {'k': 1}", undefined)).toBe("SELECT map('k', 1), {'k': 1}");
  });
});
