import { describe, expect, it } from 'vitest';
import { purgeKeysOf } from './purge-keys.js';
import { ReadSet, surrogateKeysOf } from './surrogate-keys.js';

describe('surrogate keys', () => {
  it('lists the org, collections, CMS kinds, then entries and assets by id', () => {
    const reads = new ReadSet();
    reads.collection('story');
    reads.entry('e1', 'story');
    reads.entry('e2');
    reads.asset('a1');
    reads.cmsKind('sections');
    expect(surrogateKeysOf('org', reads)).toEqual(['o.org', 'o.org.m.story', 'o.org.cms.sections', 'o.org.e.e1', 'o.org.e.e2', 'o.org.a.a1']);
  });

  it('folds ids into model, entries and asset keys when they do not fit, then into the org key', () => {
    const reads = new ReadSet();
    for (let i = 0; i < 50; i++) reads.entry(`story-${i}`, 'story');
    reads.entry('missing');
    reads.asset('a1');
    const all = surrogateKeysOf('org', reads);
    expect(all).toHaveLength(53);
    // every response that the full list would purge is purged by the folded one: a purge of
    // story-7 sends its model's key and the entries key (see purgeKeysOf)
    const folded = surrogateKeysOf('org', reads, 100);
    expect(folded).toEqual(['o.org', 'o.org.m.story', 'o.org.entries', 'o.org.cms.assets']);
    const purge = purgeKeysOf({ orgId: 'org', type: 'entry.published', subject: 'entry:story-7', model: 'story', data: {} });
    expect(purge.some((k) => folded.includes(k))).toBe(true);
    expect(purgeKeysOf({ orgId: 'org', type: 'asset.updated', subject: 'asset:a1', model: null, data: {} }).some((k) => folded.includes(k))).toBe(true);
    expect(surrogateKeysOf('org', reads, 20)).toEqual(['o.org']);
  });

  it('a cached answer keeps the keys of its execution', () => {
    const reads = new ReadSet();
    reads.fromCache = ['o.org', 'o.org.e.x'];
    reads.entry('y');
    expect(surrogateKeysOf('org', reads)).toEqual(['o.org', 'o.org.e.x']);
  });

  it('maps events to the keys they make stale; drafts to none', () => {
    const ev = (type: string, subject: string, model: string | null = null, data: Record<string, unknown> = {}) => purgeKeysOf({ orgId: 'o1', type, subject, model, data });
    expect(ev('entry.unpublished', 'entry:e1', 'story')).toEqual(['o.o1.e.e1', 'o.o1.m.story', 'o.o1.entries']);
    for (const draft of ['entry.saved', 'entry.created', 'entry.scheduled']) expect(ev(draft, 'entry:e1', 'story')).toEqual([]);
    expect(ev('model.deleted', 'model:story', 'story')).toEqual(['o.o1']);
    // a component is part of the schema: its change purges the whole organization, as a model's does
    expect(ev('component.changed', 'component:hero')).toEqual(['o.o1']);
    expect(ev('component.deleted', 'component:hero')).toEqual(['o.o1']);
    expect(ev('asset.created', 'asset:a1')).toEqual(['o.o1.cms.assets']);
    expect(ev('section.changed', 'section:s1')).toEqual(['o.o1.cms.sections']);
    const imported = { entries: [{ id: 'x', event: 'published' }, { id: 'y', event: 'saved' }] };
    expect(ev('entry.imported', 'import:b:story', 'story', imported)).toEqual(['o.o1.m.story', 'o.o1.entries', 'o.o1.e.x']);
    expect(ev('entry.imported', 'import:b:story', 'story', { entries: [{ id: 'y', event: 'saved' }] })).toEqual([]);
  });
});
