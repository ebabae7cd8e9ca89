import { EditorContent, Node, useEditor, type JSONContent } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState } from 'react';

// TipTap's JSON is Folio's rich content document as is: the same {type: 'doc', content} tree,
// with Folio's embedded-entry and embedded-media blocks as two atom nodes. Nothing is converted.

const embed = (name: 'cms_reference' | 'cms_media', what: string) =>
  Node.create({
    name,
    group: 'block',
    atom: true,
    selectable: true,
    addAttributes: () => ({ id: { default: null } }),
    parseHTML: () => [{ tag: `div[data-${name}]`, getAttrs: (el) => ({ id: (el as HTMLElement).getAttribute(`data-${name}`) }) }],
    renderHTML: ({ HTMLAttributes }) => ['div', { [`data-${name}`]: HTMLAttributes.id, class: 'embed' }, `${what} ${HTMLAttributes.id}`],
  });

const EXTENSIONS = [StarterKit, embed('cms_reference', 'Embedded entry'), embed('cms_media', 'Embedded media')];
const NODES = new Set(['doc', 'paragraph', 'text', 'heading', 'bulletList', 'orderedList', 'listItem', 'blockquote', 'codeBlock', 'hardBreak', 'horizontalRule', 'cms_reference', 'cms_media']);
const MARKS = new Set(['bold', 'italic', 'strike', 'code', 'link', 'underline']);

/** Whether the editor holds every node and mark of `doc` (one it does not know would be dropped on save). */
function editable(doc: unknown): boolean {
  const walk = (n: JSONContent): boolean => NODES.has(n.type ?? '') && (n.marks ?? []).every((mk) => MARKS.has(mk.type)) && (n.content ?? []).every(walk);
  return doc === null || doc === undefined || (typeof doc === 'object' && walk(doc as JSONContent));
}

export default function RichContent(props: { labelledBy: string; describedBy?: string; value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  if (!editable(props.value)) {
    return (
      <p className="hint" id={`${props.labelledBy}-unsupported`}>
        This document has blocks the editor does not know; edit it through the API so nothing is lost.
      </p>
    );
  }
  return <Editor {...props} />;
}

function Editor({ labelledBy, describedBy, value, onChange, disabled }: { labelledBy: string; describedBy?: string; value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const [embedding, setEmbedding] = useState(false);
  const [embedId, setEmbedId] = useState('');
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: (value as JSONContent | null) ?? undefined,
    editable: !disabled,
    // TipTap's own styles come as an inline <style>, which the Studio's CSP refuses: studio.css has them
    injectCSS: false,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': labelledBy, ...(describedBy ? { 'aria-describedby': describedBy } : {}), class: 'rich' },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? null : e.getJSON()),
  });
  if (!editor) return null;
  const insert = () => {
    if (embedId.trim()) editor.chain().focus().insertContent({ type: 'cms_reference', attrs: { id: embedId.trim() } }).run();
    setEmbedId('');
    setEmbedding(false);
  };
  const toggle = (name: string, run: () => boolean) => (
    <button type="button" aria-pressed={editor.isActive(name)} onClick={run} disabled={disabled}>
      {name === 'heading' ? 'Heading' : name === 'bulletList' ? 'List' : name[0].toUpperCase() + name.slice(1)}
    </button>
  );
  return (
    <div className="rich-editor">
      <div role="toolbar" aria-label="Formatting" className="toolbar">
        {toggle('bold', () => editor.chain().focus().toggleBold().run())}
        {toggle('italic', () => editor.chain().focus().toggleItalic().run())}
        {toggle('heading', () => editor.chain().focus().toggleHeading({ level: 2 }).run())}
        {toggle('bulletList', () => editor.chain().focus().toggleBulletList().run())}
        <button type="button" disabled={disabled} aria-expanded={embedding} onClick={() => setEmbedding((x) => !x)}>
          Embed an entry
        </button>
      </div>
      {embedding && (
        // not a form: the entry editor around it is one
        <div className="embed-form">
          <label>
            Entry id to embed
            <input
              value={embedId}
              onChange={(e) => setEmbedId(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  insert();
                }
              }}
            />
          </label>
          <button type="button" onClick={insert}>
            Embed
          </button>
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
