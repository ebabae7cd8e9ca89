import { useQuery } from '@tanstack/react-query';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { ApiError, get, m } from '../api';
import type { Entry } from '../types';
import { nameOf, type Resource } from './resources';

// How an embedded entry or media block reads in the rich text editor: by its title (an entry's,
// read by id; each id once, however many blocks embed it), its id beside it.

export type EmbedType = 'cms_reference' | 'cms_media';

const WHAT: Record<EmbedType, string> = { cms_reference: 'Embedded entry', cms_media: 'Embedded media' };

/** The block's title, and a note when what it embeds is deleted, gone or not readable by this member. */
function useTitle(type: EmbedType, id: string): { title: string | null; note: string | null } {
  const found = useQuery({
    queryKey: ['embed-title', type, id],
    queryFn: async () => {
      if (type === 'cms_media') return { title: nameOf(await get<Resource>(m(`/assets/${encodeURIComponent(id)}`))), deleted: false };
      const entry = await get<Entry>(m(`/entries/${encodeURIComponent(id)}`));
      return { title: entry.title, deleted: entry.status === 'DELETED' };
    },
    enabled: id !== '',
    staleTime: 60_000,
    retry: false,
  });
  if (found.isError) return { title: null, note: found.error instanceof ApiError && found.error.status === 404 ? 'not found' : 'not readable' };
  return { title: found.data?.title ?? null, note: found.data?.deleted ? 'deleted' : null };
}

/** The block as shown: "Embedded entry: <title>" with the id as secondary text (and a note when it is deleted or gone). */
export function EmbedBlock({ node }: NodeViewProps) {
  const type = node.type.name as EmbedType;
  const id = String(node.attrs.id ?? '');
  const { title, note } = useTitle(type, id);
  return (
    <NodeViewWrapper className="embed" {...{ [`data-${type}`]: id }}>
      {WHAT[type]}: {title ? <strong>{title}</strong> : null} <span className="embed-id">{note ? `${id} (${note})` : id}</span>
    </NodeViewWrapper>
  );
}
