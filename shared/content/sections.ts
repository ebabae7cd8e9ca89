import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound, unprocessable } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import { bumpContentVersion } from './org-versions.js';
import { getResource, hasEdgesTo, type ResourceRecord } from './resource-repository.js';
import { recordResourceEvent, siteProblems, type ResourceDef } from './resources.js';
import { ancestorIds, hasChildSections, lockSectionTree, replaceSectionMedia, sectionMediaIds } from './section-repository.js';
import { findAssetTypes } from './target-repository.js';

/** Refuses an unknown parent and any move that would make a section its own ancestor. */
async function parentProblems(tx: Queryable, orgId: string, id: string, parentId: unknown): Promise<string[]> {
  if (typeof parentId !== 'string') return [];
  if (parentId === id) return [`parentId: a section cannot be its own parent`];
  await lockSectionTree(tx, orgId);
  const chain = await ancestorIds(tx, orgId, parentId);
  if (chain.length === 0) return [`parentId: section "${parentId}" not found`];
  if (chain.includes(id)) return [`parentId: moving under "${parentId}" would create a cycle (it is a descendant of "${id}")`];
  return [];
}

export const sectionDef: ResourceDef = {
  name: 'Section',
  event: 'section.changed',
  spec: {
    table: 'sections',
    columns: { parentId: 'parent_id', title: 'title', slug: 'slug', url: 'url', siteId: 'site_id', externalId: 'external_id', description: 'description', position: 'position' },
    hasUpdatedAt: true,
    orderBy: 'position NULLS LAST, created_at, id',
  },
  async check(tx, orgId, id, values) {
    return [...(await parentProblems(tx, orgId, id, values.parentId)), ...(await siteProblems(tx, orgId, values))];
  },
  async beforeDelete(tx, orgId, id) {
    if (await hasChildSections(tx, orgId, id)) throw conflict(`Section "${id}" has child sections.`);
    if (await hasEdgesTo(tx, orgId, ['section'], id)) throw conflict(`Section "${id}" is used by entries.`);
  },
  async decorate(db, orgId, record) {
    return { ...record, mediaIds: await sectionMediaIds(db, orgId, record.id) };
  },
};

/** `PUT /sections/:id/media`: the section's media, in order; every asset must exist in the org. */
export async function putSectionMedia(deps: Pick<ContentDeps, 'db'>, orgId: string, sectionId: string, assetIds: string[]): Promise<ResourceRecord> {
  return deps.db.transaction(async (tx) => {
    const section = await getResource(tx, sectionDef.spec, orgId, sectionId, true);
    if (!section) throw notFound(`Section "${sectionId}"`);
    const found = await findAssetTypes(tx, orgId, [...new Set(assetIds)]);
    const problems = assetIds.flatMap((a, i) => (found.has(a) ? [] : [`[${i}]: asset "${a}" not found`]));
    if (problems.length > 0) throw unprocessable('The section media are invalid.', problems);
    await replaceSectionMedia(tx, orgId, sectionId, assetIds);
    await recordResourceEvent(tx, sectionDef, orgId, sectionId, 'updated');
    await bumpContentVersion(tx, orgId);
    return { ...section, mediaIds: assetIds };
  });
}
