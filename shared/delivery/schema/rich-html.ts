import type { RichNode } from '../../content/rich-content.js';

/**
 * HTML of a rich-content block: every text and attribute escaped; links and image
 * sources kept only when `http`, `https`, `mailto` or relative, otherwise dropped.
 */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export function safeUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  // Browsers ignore control characters and whitespace inside a scheme ("java\nscript:").
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const compact = raw.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme && !['http', 'https', 'mailto'].includes(scheme[1].toLowerCase())) return null;
  if (compact.startsWith('//') || compact.startsWith('\\\\') || compact.startsWith('/\\')) return /^\/\/[^/]/.test(compact) ? raw.trim() : null;
  return raw.trim();
}

const BLOCK_TAGS: Record<string, string> = {
  paragraph: 'p',
  blockquote: 'blockquote',
  bulletList: 'ul',
  bullet_list: 'ul',
  orderedList: 'ol',
  ordered_list: 'ol',
  listItem: 'li',
  list_item: 'li',
};

const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  strong: 'strong',
  italic: 'em',
  em: 'em',
  code: 'code',
  underline: 'u',
  strike: 's',
  strikethrough: 's',
  subscript: 'sub',
  superscript: 'sup',
};

function renderText(node: RichNode): string {
  let html = escapeHtml(node.text ?? '');
  for (const mark of node.marks ?? []) {
    if (mark.type === 'link') {
      const href = safeUrl(mark.attrs?.href);
      html = href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${html}</a>` : html;
    } else if (MARK_TAGS[mark.type]) {
      const tag = MARK_TAGS[mark.type];
      html = `<${tag}>${html}</${tag}>`;
    }
  }
  return html;
}

export function renderNode(node: RichNode): string {
  const inner = () => (node.content ?? []).map(renderNode).join('');
  const id = typeof node.attrs?.id === 'string' ? escapeHtml(node.attrs.id) : '';
  switch (node.type) {
    case 'text':
      return renderText(node);
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 1));
      return `<h${level}>${inner()}</h${level}>`;
    }
    case 'codeBlock':
    case 'code_block':
      return `<pre><code>${inner()}</code></pre>`;
    case 'horizontalRule':
    case 'horizontal_rule':
      return '<hr>';
    case 'hardBreak':
    case 'hard_break':
      return '<br>';
    case 'image': {
      const src = safeUrl(node.attrs?.src);
      const alt = typeof node.attrs?.alt === 'string' ? escapeHtml(node.attrs.alt) : '';
      return src ? `<img src="${escapeHtml(src)}" alt="${alt}">` : '';
    }
    case 'cms_reference':
      return `<div data-cms-entry-id="${id}"></div>`;
    case 'cms_media':
      return `<figure data-cms-media-id="${id}"></figure>`;
    default: {
      const tag = BLOCK_TAGS[node.type] ?? 'div';
      return `<${tag}>${inner()}</${tag}>`;
    }
  }
}

/** Plain text of a node: text leaves joined, block children separated by a space. */
export function plainText(node: RichNode): string {
  if (typeof node.text === 'string') return node.text;
  return (node.content ?? []).map(plainText).filter((s) => s !== '').join(node.content?.every((c) => c.type === 'text') ? '' : ' ');
}
