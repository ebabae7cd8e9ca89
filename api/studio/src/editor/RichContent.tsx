import { EditorContent, Node, ReactNodeViewRenderer, useEditor, type JSONContent } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState } from 'react';
import { EmbedBlock } from './EmbedBlock';
import { EntrySearch } from './EntrySearch';
import { ResourceSearch } from './ResourceSearch';
import { UploadInput } from './UploadInput';

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
    // in the editor the block shows its title, read from the API (renderHTML stays the copied form)
    addNodeView: () => ReactNodeViewRenderer(EmbedBlock),
  });

const EXTENSIONS = [StarterKit, embed('cms_reference', 'Embedded entry'), embed('cms_media', 'Embedded media')];
const NODES = new Set(['doc', 'paragraph', 'text', 'heading', 'bulletList', 'orderedList', 'listItem', 'blockquote', 'codeBlock', 'hardBreak', 'horizontalRule', 'cms_reference', 'cms_media']);
const MARKS = new Set(['bold', 'italic', 'strike', 'code', 'link', 'underline']);

/** Whether the editor holds every node and mark of `doc` (one it does not know would be dropped on save). */
function editable(doc: unknown): boolean {
  const walk = (n: JSONContent): boolean => NODES.has(n.type ?? '') && (n.marks ?? []).every((mk) => MARKS.has(mk.type)) && (n.content ?? []).every(walk);
  return doc === null || doc === undefined || (typeof doc === 'object' && walk(doc as JSONContent));
}

type Props = {
  labelledBy: string;
  /** The field's label: the toolbar's controls are named after it (a screen may hold several rich fields). */
  label: string;
  describedBy?: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled: boolean;
};

export default function RichContent(props: Props) {
  if (!editable(props.value)) {
    return (
      <p className="hint" id={`${props.labelledBy}-unsupported`}>
        This document has blocks the editor does not know; edit it through the API so nothing is lost.
      </p>
    );
  }
  return <Editor {...props} />;
}

function Editor({ labelledBy, label, describedBy, value, onChange, disabled }: Props) {
  const [embedding, setEmbedding] = useState<'entry' | 'media' | null>(null);
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
  // after the selection, not over it: a block just embedded is selected, and a second would replace it
  const embed = (node: JSONContent) => editor.chain().focus().insertContentAt(editor.state.selection.to, node).run();
  const embedAs = (type: 'cms_reference' | 'cms_media', id: string) => {
    embed({ type, attrs: { id } });
    setEmbedding(null);
  };
  const toggle = (name: string, run: () => boolean) => {
    const text = name === 'heading' ? 'Heading' : name === 'bulletList' ? 'List' : name[0].toUpperCase() + name.slice(1);
    return (
      <button type="button" aria-pressed={editor.isActive(name)} onClick={run} disabled={disabled} aria-label={`${text} in ${label}`}>
        {text}
      </button>
    );
  };
  return (
    <div className="rich-editor">
      <div role="toolbar" aria-label={`Formatting of ${label}`} className="toolbar">
        {toggle('bold', () => editor.chain().focus().toggleBold().run())}
        {toggle('italic', () => editor.chain().focus().toggleItalic().run())}
        {toggle('heading', () => editor.chain().focus().toggleHeading({ level: 2 }).run())}
        {toggle('bulletList', () => editor.chain().focus().toggleBulletList().run())}
        <button type="button" disabled={disabled} aria-expanded={embedding === 'entry'} onClick={() => setEmbedding((x) => (x === 'entry' ? null : 'entry'))}>
          Embed an entry in {label}
        </button>
        <button type="button" disabled={disabled} aria-expanded={embedding === 'media'} onClick={() => setEmbedding((x) => (x === 'media' ? null : 'media'))}>
          Embed media in {label}
        </button>
      </div>
      {embedding === 'media' && (
        <div className="embed-form">
          <ResourceSearch kind="media" label={`Find media to embed in ${label}`} listLabel={`Media to embed in ${label}`} onPick={(r) => embedAs('cms_media', r.id)} />
          <UploadInput label={`Upload media to embed in ${label}`} onUploaded={(id) => embedAs('cms_media', id)} />
        </div>
      )}
      {embedding === 'entry' && (
        <div className="embed-form">
          <EntrySearch label={`Find an entry to embed in ${label}`} listLabel={`Entries to embed in ${label}`} allowed={[]} onPick={(e) => embedAs('cms_reference', e.id)} />
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
