import { describe, expect, it } from 'vitest';
import { metricsOf } from './metrics.js';
import type { FieldDefinition, ModelDefinition } from './model-types.js';

const f = (alias: string, type: FieldDefinition['type'], valueType: FieldDefinition['valueType'] = 'single'): FieldDefinition => ({
  alias,
  type,
  valueType,
  allowedModels: [],
  required: false,
});
const model: ModelDefinition = {
  id: 'm',
  alias: 'post',
  name: 'Post',
  titleField: null,
  fields: [f('title', 'text'), f('lead', 'richtext'), f('body', 'richcontent'), f('hero', 'media'), f('gallery', 'media', 'list'), f('n', 'number')],
};

describe('metricsOf', () => {
  it('counts words, characters, sentences, images and reading time over text fields', () => {
    const m = metricsOf(
      model,
      {
        title: 'Hello world!',
        lead: '<p>One <b>two</b>. Three?</p>',
        body: {
          type: 'doc',
          content: [
            { type: 'heading', content: [{ type: 'text', text: 'Head' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Four five. ' }, { type: 'text', text: 'Six', marks: [{ type: 'bold' }] }] },
            { type: 'cms_media', attrs: { id: 'img2' } },
            { type: 'cms_media', attrs: { id: 'file1' } },
            { type: 'image', attrs: { src: 'x.png' } },
          ],
        },
        hero: 'img1',
        gallery: ['img3', 'file1'],
        n: 12345,
      },
      (id) => id.startsWith('img'),
    );
    // words: Hello world! (2) + One two. Three? (3) + Head (1) + Four five. Six (3)
    expect(m.wordCount).toBe(9);
    // sentences: "world!", "two.", "Three?", "five."
    expect(m.sentenceCount).toBe(4);
    // images: hero img1, gallery img3, rich img2, inline image node
    expect(m.imageCount).toBe(4);
    expect(m.characterCount).toBe('Hello world!'.length + 'One two. Three?'.length + 'Head'.length + 'Four five. Six'.length);
    expect(m.readingTime).toBe(1);
  });

  it('reading time is ceil(words / 200); empty entries have zeros', () => {
    expect(metricsOf(model, { title: Array(401).fill('w').join(' ') }, () => false).readingTime).toBe(3);
    expect(metricsOf(model, {}, () => false)).toEqual({ wordCount: 0, characterCount: 0, sentenceCount: 0, imageCount: 0, readingTime: 0 });
  });

  it('counts characters as code points', () => {
    expect(metricsOf(model, { title: 'héllo 👋' }, () => false).characterCount).toBe(7);
  });
});
