import { describe, expect, it } from 'vitest';
import type { ExportEntryRow } from '../entry-row.js';
import { entryLine } from './export-lines.js';

const row: ExportEntryRow = {
  rowId: 7,
  id: 'e1',
  seq: 3,
  inPreview: true,
  inDelivery: true,
  modelAlias: 'article',
  siteId: 'web',
  status: 'PUBLISHED',
  slug: 'a "quoted" slug\n',
  externalId: null,
  labels: ['x'],
  attrs: 'null',
  fields: '{"title": "A \\"b\\"", "n": [1, 2], "none": null}',
  locales: '{"de-DE": {"title": "Ä"}}',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  publishedAt: new Date('2026-01-03T00:00:00.000Z'),
  firstPublishedAt: null,
};

describe('entryLine', () => {
  it('writes a published version as the import takes it: JSON values as Postgres sent them, strings escaped, no empty members', () => {
    const text = entryLine(row, 'published');
    expect(JSON.parse(text)).toStrictEqual({
      type: 'entry',
      id: 'e1',
      model: 'article',
      siteId: 'web',
      slug: 'a "quoted" slug\n',
      labels: ['x'],
      fields: { title: 'A "b"', n: [1, 2], none: null },
      locales: { 'de-DE': { title: 'Ä' } },
      status: 'PUBLISHED',
      createdAt: '2026-01-02T03:04:05.678Z',
      publishedAt: '2026-01-03T00:00:00.000Z',
    });
    expect(text).not.toContain('\n');
  });

  it('writes an edit without status or dates, a draft without status, an archived one with its dates', () => {
    expect(Object.keys(JSON.parse(entryLine(row, 'edit')))).toEqual(['type', 'id', 'model', 'siteId', 'slug', 'labels', 'fields', 'locales']);
    expect(JSON.parse(entryLine({ ...row, locales: null, attrs: '{"a":1}' }, 'draft'))).toMatchObject({ attrs: { a: 1 }, createdAt: '2026-01-02T03:04:05.678Z' });
    expect(JSON.parse(entryLine({ ...row, locales: null }, 'draft'))).not.toHaveProperty('status');
    expect(JSON.parse(entryLine(row, 'archived'))).toMatchObject({ status: 'ARCHIVED', publishedAt: '2026-01-03T00:00:00.000Z' });
  });
});
