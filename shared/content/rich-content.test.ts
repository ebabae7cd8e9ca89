import { describe, expect, it } from 'vitest';
import { MAX_RICH_DEPTH, blockTexts, inlineImageCount, richContentProblem, richTargets, type RichDoc } from './rich-content.js';

const doc: RichDoc = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] },
    {
      type: 'bullet_list',
      content: [
        { type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] },
        { type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'two' }, { type: 'text', text: '!', marks: [{ type: 'bold' }] }] }] },
      ],
    },
    { type: 'cms_reference', attrs: { id: 'e1' } },
    { type: 'paragraph', content: [{ type: 'cms_media', attrs: { id: 'a1' } }, { type: 'image', attrs: { src: '/x.png' } }] },
    { type: 'cms_reference', attrs: { id: 'e2' } },
  ],
};

describe('rich content', () => {
  it('accepts a well-formed document', () => expect(richContentProblem(doc)).toBeNull());

  it.each([
    [null, 'must be a document'],
    [{ type: 'doc' }, 'content must be an array'],
    [{ type: 'doc', content: [{ type: 'p', content: 'x' }] }, 'content[0].content: must be an array'],
    [{ type: 'doc', content: [{ type: 'p', text: 1 }] }, 'content[0].text: must be a string'],
    [{ type: 'doc', content: [{ type: 'p', marks: [{}] }] }, 'content[0].marks: must be an array of {type, attrs?}'],
    [{ type: 'doc', content: [{ type: 'p', attrs: [] }] }, 'content[0].attrs: must be an object'],
    [{ type: 'doc', content: [{ type: 'cms_media', attrs: { id: '' } }] }, 'a cms_media block needs attrs.id'],
  ])('%j → %s', (value, message) => expect(richContentProblem(value)).toContain(message));

  it('refuses documents nested too deep', () => {
    let node: Record<string, unknown> = { type: 'text', text: 'x' };
    for (let i = 0; i < MAX_RICH_DEPTH + 1; i++) node = { type: 'div', content: [node] };
    expect(richContentProblem({ type: 'doc', content: [node] })).toContain('nested deeper than');
  });

  it('extracts block texts, targets in order and inline images', () => {
    expect(blockTexts(doc)).toEqual(['Title', 'one two!', '', '', '']);
    expect(richTargets(doc)).toEqual({ entries: ['e1', 'e2'], media: ['a1'] });
    expect(inlineImageCount(doc)).toBe(1);
  });
});
