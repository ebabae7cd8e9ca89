/**
 * Rich content is a ProseMirror-style document `{type: 'doc', content: [blocks…]}`.
 * Blocks `cms_reference` and `cms_media` point at an entry or an asset through `attrs.id`.
 */
export interface RichNode {
  type: string;
  text?: string;
  content?: RichNode[];
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  attrs?: Record<string, unknown>;
}

export interface RichDoc {
  type: 'doc';
  content: RichNode[];
}

export const MAX_RICH_DEPTH = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first structural problem of a document, or null when it is well formed. */
export function richContentProblem(value: unknown): string | null {
  if (!isObject(value) || value.type !== 'doc') return 'must be a document {"type": "doc", "content": [...]}';
  if (!Array.isArray(value.content)) return 'content must be an array of blocks';
  const walk = (nodes: unknown[], path: string, depth: number): string | null => {
    if (depth > MAX_RICH_DEPTH) return `${path}: nested deeper than ${MAX_RICH_DEPTH} levels`;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const at = `${path}[${i}]`;
      if (!isObject(n) || typeof n.type !== 'string' || n.type === '') return `${at}: a block needs a string "type"`;
      if (n.text !== undefined && typeof n.text !== 'string') return `${at}.text: must be a string`;
      if (n.attrs !== undefined && n.attrs !== null && !isObject(n.attrs)) return `${at}.attrs: must be an object`;
      if (n.marks !== undefined) {
        if (!Array.isArray(n.marks) || n.marks.some((mk) => !isObject(mk) || typeof mk.type !== 'string')) {
          return `${at}.marks: must be an array of {type, attrs?}`;
        }
      }
      if ((n.type === 'cms_reference' || n.type === 'cms_media') && !(isObject(n.attrs) && typeof n.attrs.id === 'string' && n.attrs.id !== '')) {
        return `${at}: a ${n.type} block needs attrs.id`;
      }
      if (n.content !== undefined) {
        if (!Array.isArray(n.content)) return `${at}.content: must be an array of blocks`;
        const inner = walk(n.content, `${at}.content`, depth + 1);
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(value.content, 'content', 1);
}

/** Visits every node depth-first in document order. */
export function eachNode(doc: RichDoc, visit: (node: RichNode) => void): void {
  const walk = (nodes: RichNode[]) => {
    for (const n of nodes) {
      visit(n);
      if (n.content) walk(n.content);
    }
  };
  walk(doc.content);
}

/** Plain text of each top-level block (so words of adjacent blocks never run together). */
export function blockTexts(doc: RichDoc): string[] {
  return doc.content.map((block) => {
    const parts: string[] = [];
    const walk = (n: RichNode) => {
      if (typeof n.text === 'string') parts.push(n.text);
      // Inline children join directly; block children are separated by a space.
      n.content?.forEach(walk);
      if (n.content && n.content.length > 0 && n.type !== 'text' && !/\s$/.test(parts[parts.length - 1] ?? ' ')) parts.push(' ');
    };
    walk(block);
    return parts.join('').trim();
  });
}

/** Entry and asset ids of `cms_reference` / `cms_media` blocks, in order of appearance. */
export function richTargets(doc: RichDoc): { entries: string[]; media: string[] } {
  const entries: string[] = [];
  const media: string[] = [];
  eachNode(doc, (n) => {
    if (n.type === 'cms_reference') entries.push(String(n.attrs?.id));
    else if (n.type === 'cms_media') media.push(String(n.attrs?.id));
  });
  return { entries, media };
}

/** Inline `image` nodes (ProseMirror's schema) count as images too. */
export function inlineImageCount(doc: RichDoc): number {
  let n = 0;
  eachNode(doc, (node) => {
    if (node.type === 'image') n++;
  });
  return n;
}
