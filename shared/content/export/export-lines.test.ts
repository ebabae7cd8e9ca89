import { describe, expect, it } from 'vitest';
import { lineText, RawJson } from './export-lines.js';

describe('lineText', () => {
  it('writes a line as JSON.stringify does when no member is raw JSON', () => {
    const line = { type: 'site', id: 's1', name: 'Web "main"' };
    expect(lineText(line)).toBe(JSON.stringify(line));
  });

  it('splices raw JSON members in as they are, after the others, and leaves the line itself alone', () => {
    const line = { type: 'entry', id: 'e1', fields: new RawJson('{"title": "A \\"b\\"", "n": [1, 2]}'), slug: 'a', locales: new RawJson('{"de-DE": {"title": "Ä"}}') };
    const text = lineText(line);
    expect(JSON.parse(text)).toEqual({ type: 'entry', id: 'e1', slug: 'a', fields: { title: 'A "b"', n: [1, 2] }, locales: { 'de-DE': { title: 'Ä' } } });
    expect(text.startsWith('{"type":"entry","id":"e1","slug":"a",')).toBe(true);
    expect(line.fields).toBeInstanceOf(RawJson);
  });

  it('writes a line of raw members only as valid JSON', () => {
    const onlyRaw = { fields: new RawJson('[1]') } as unknown as Parameters<typeof lineText>[0];
    expect(JSON.parse(lineText(onlyRaw))).toEqual({ fields: [1] });
  });
});
