import { describe, expect, it } from 'vitest';
import { plainText, renderNode, safeUrl } from './rich-html.js';

describe('safeUrl', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://x.y', 'http://x.y'],
    ['mailto:a@b.c', 'mailto:a@b.c'],
    ['/relative/path', '/relative/path'],
    ['page.html#top', 'page.html#top'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['java\nscript:alert(1)', null],
    [' javascript:alert(1)', null],
    ['data:text/html,<script>', null],
    ['vbscript:x', null],
    [42, null],
  ])('%j → %j', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });
});

describe('renderNode', () => {
  it('escapes text and attributes and keeps only safe links and images', () => {
    expect(renderNode({ type: 'paragraph', content: [{ type: 'text', text: '<a href="x">&"\'' }] })).toBe('<p>&lt;a href=&quot;x&quot;&gt;&amp;&quot;&#39;</p>');
    expect(renderNode({ type: 'text', text: 'go', marks: [{ type: 'link', attrs: { href: 'https://a.b/"onmouseover="x' } }] })).toBe(
      '<a href="https://a.b/&quot;onmouseover=&quot;x" rel="noopener noreferrer">go</a>',
    );
    expect(renderNode({ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:evil()' } }] })).toBe('x');
    expect(renderNode({ type: 'image', attrs: { src: 'javascript:x', alt: 'a' } })).toBe('');
    expect(renderNode({ type: 'image', attrs: { src: '/i.png', alt: '"a"' } })).toBe('<img src="/i.png" alt="&quot;a&quot;">');
  });

  it('renders headings, lists, marks and unknown blocks', () => {
    expect(renderNode({ type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'T', marks: [{ type: 'bold' }, { type: 'italic' }] }] })).toBe(
      '<h6><em><strong>T</strong></em></h6>',
    );
    expect(renderNode({ type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'i' }] }] }] })).toBe(
      '<ul><li><p>i</p></li></ul>',
    );
    expect(renderNode({ type: 'cms_reference', attrs: { id: '<x>' } })).toBe('<div data-cms-entry-id="&lt;x&gt;"></div>');
    expect(renderNode({ type: 'mystery<script>', content: [] })).toBe('<div></div>');
  });

  it('plain text joins inline text and separates blocks', () => {
    expect(plainText({ type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toBe('ab');
    expect(plainText({ type: 'blockquote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'b' }] }] })).toBe('a b');
  });
});
