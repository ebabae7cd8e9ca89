/** A content structure the management API serves as a simple resource (POST, GET paged, PATCH, DELETE). */
export interface ResourceKind {
  path: string;
  title: string;
  /** What one is called in control names ("Label", "Author"). */
  singular: string;
  /** The text members, in the order the form shows them; the first names the record. */
  fields: { key: string; label: string }[];
  /** A tree by `parentId` (sections). */
  tree?: boolean;
  /** Entries with display windows (lists). */
  entries?: boolean;
}

export type ResourceRecord = { id: string; parentId?: string | null; position?: number | null; entries?: ListItem[] } & Record<string, unknown>;
export interface ListItem {
  entryId: string;
  startAt: string | null;
  endAt: string | null;
}

export const KINDS = {
  authors: {
    path: '/authors',
    title: 'Authors',
    singular: 'Author',
    fields: [
      { key: 'byline', label: 'Byline' },
      { key: 'firstName', label: 'First name' },
      { key: 'lastName', label: 'Last name' },
      { key: 'email', label: 'Email' },
    ],
  },
  labels: {
    path: '/labels',
    title: 'Labels',
    singular: 'Label',
    fields: [
      { key: 'name', label: 'Name' },
      { key: 'description', label: 'Description' },
      { key: 'color', label: 'Color' },
    ],
  },
  sections: {
    path: '/sections',
    title: 'Sections',
    singular: 'Section',
    tree: true,
    fields: [
      { key: 'title', label: 'Title' },
      { key: 'slug', label: 'Slug' },
    ],
  },
  lists: {
    path: '/lists',
    title: 'Lists',
    singular: 'List',
    entries: true,
    fields: [
      { key: 'name', label: 'Name' },
      { key: 'description', label: 'Description' },
    ],
  },
} satisfies Record<string, ResourceKind>;

export type KindName = keyof typeof KINDS;

/** Siblings as delivery lists them: by position (the placed ones first), then by title. */
function siblingOrder(a: ResourceRecord, b: ResourceRecord): number {
  const pa = a.position ?? Number.MAX_SAFE_INTEGER;
  const pb = b.position ?? Number.MAX_SAFE_INTEGER;
  if (pa !== pb) return pa - pb;
  return String(a.title ?? '\uffff').localeCompare(String(b.title ?? '\uffff')) || a.id.localeCompare(b.id);
}

/** The records in tree order (each parent before its children, siblings in delivery's order) with their depth; orphans at the root. */
export function treeOrder(records: ResourceRecord[]): { record: ResourceRecord; depth: number }[] {
  const ids = new Set(records.map((r) => r.id));
  const children = new Map<string | null, ResourceRecord[]>();
  for (const r of records) {
    const parent = r.parentId && ids.has(r.parentId) ? r.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: { record: ResourceRecord; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const r of [...(children.get(parent) ?? [])].sort(siblingOrder)) {
      out.push({ record: r, depth });
      walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
