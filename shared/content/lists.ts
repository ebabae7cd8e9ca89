import { notFound, unprocessable } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import type { ListEntriesInput } from './resource-input.js';
import { listItems, replaceListItems, type ListItem } from './list-repository.js';
import { bumpContentVersion } from './org-versions.js';
import { getResource, type ResourceRecord } from './resource-repository.js';
import { recordResourceEvent, siteProblems, type ResourceDef } from './resources.js';
import { isProblem, normalizeDateTime } from './scalars.js';
import { findEntryModels } from './target-repository.js';

export const listDef: ResourceDef = {
  name: 'List',
  event: 'list.changed',
  spec: {
    table: 'lists',
    columns: { name: 'name', description: 'description', siteId: 'site_id', externalId: 'external_id' },
    hasUpdatedAt: true,
    orderBy: 'created_at, id',
  },
  check: (tx, orgId, _id, values) => siteProblems(tx, orgId, values),
  async decorate(db, orgId, record) {
    return { ...record, entries: await listItems(db, orgId, record.id) };
  },
};

/** Normalizes the window of each item; `endAt` must come after `startAt`. */
export function checkListItems(items: ListEntriesInput): { items: ListItem[]; problems: string[] } {
  const problems: string[] = [];
  const out = items.map((item, i) => {
    const date = (name: 'startAt' | 'endAt') => {
      const v = item[name];
      if (v === null || v === undefined) return null;
      const d = normalizeDateTime(v);
      if (isProblem(d)) {
        problems.push(`[${i}].${name}: ${d.problem}`);
        return null;
      }
      return d;
    };
    const startAt = date('startAt');
    const endAt = date('endAt');
    if (startAt && endAt && endAt <= startAt) problems.push(`[${i}].endAt: must be after startAt`);
    return { entryId: item.entryId, startAt, endAt };
  });
  return { items: out, problems };
}

/** Replaces a list's entries (order = position); every entry must exist in the org. */
export async function putListEntries(deps: Pick<ContentDeps, 'db'>, orgId: string, listId: string, input: ListEntriesInput): Promise<ResourceRecord> {
  const { items, problems } = checkListItems(input);
  return deps.db.transaction(async (tx) => {
    const list = await getResource(tx, listDef.spec, orgId, listId, true);
    if (!list) throw notFound(`List "${listId}"`);
    const found = await findEntryModels(tx, orgId, [...new Set(items.map((i) => i.entryId))]);
    items.forEach((item, i) => {
      if (!found.has(item.entryId)) problems.push(`[${i}].entryId: entry "${item.entryId}" not found`);
    });
    if (problems.length > 0) throw unprocessable('The list entries are invalid.', problems);
    await replaceListItems(tx, orgId, listId, items);
    await recordResourceEvent(tx, listDef, orgId, listId, 'updated');
    await bumpContentVersion(tx, orgId);
    return { ...list, entries: items };
  });
}
