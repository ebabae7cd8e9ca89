import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound, unprocessable } from '../errors/index.js';
import { newId } from '../ids.js';
import type { ContentDeps } from './deps.js';
import { bumpContentVersion } from './org-versions.js';
import type { EventType } from '../events/event-types.js';
import { recordEvents } from '../events/record-events.js';
import {
  deleteResource,
  getResource,
  insertResource,
  listResources,
  updateResource,
  type ResourceRecord,
  type ResourceSpec,
} from './resource-repository.js';
import { findExistingIds } from './target-repository.js';

/** How one simple resource (section, author, label, list) is checked, stored and shown. */
export interface ResourceDef {
  /** Human name used in messages: "Section". */
  name: string;
  /** The event every create, change and delete records (`section.changed`). */
  event: EventType;
  spec: ResourceSpec;
  /** Semantic checks inside the write transaction; each problem names its member. */
  check?(tx: Queryable, orgId: string, id: string, values: Record<string, unknown>): Promise<string[]>;
  /** Throws (409) when the resource is still in use. */
  beforeDelete?(tx: Queryable, orgId: string, id: string): Promise<void>;
  /** Adds derived members (a section's media, a list's entries). */
  decorate?(db: Queryable, orgId: string, record: ResourceRecord): Promise<ResourceRecord>;
}

type Db = Pick<ContentDeps, 'db'>;

/** Problems with a `siteId` member, shared by every resource that has one. */
export async function siteProblems(tx: Queryable, orgId: string, values: Record<string, unknown>): Promise<string[]> {
  const siteId = values.siteId;
  if (typeof siteId !== 'string') return [];
  const found = await findExistingIds(tx, orgId, 'sites', [siteId]);
  return found.has(siteId) ? [] : [`siteId: site "${siteId}" not found`];
}

/** `<kind>.changed` with what happened: `created`, `updated` (members or contents) or `deleted`. */
export function recordResourceEvent(tx: Queryable, def: ResourceDef, orgId: string, id: string, action: 'created' | 'updated' | 'deleted'): Promise<void> {
  const kind = def.event.slice(0, def.event.indexOf('.'));
  return recordEvents(tx, orgId, [{ type: def.event, subject: `${kind}:${id}`, data: { id, action } }]);
}

const show = (db: Queryable, def: ResourceDef, orgId: string, r: ResourceRecord) => (def.decorate ? def.decorate(db, orgId, r) : r);

/** Creates with the given client id or a generated one; 409 when the id is taken. */
export async function createResource(deps: Db, def: ResourceDef, orgId: string, input: Record<string, unknown> & { id?: string }): Promise<ResourceRecord> {
  return deps.db.transaction(async (tx) => {
    const { id: given, ...values } = input;
    const id = given ?? newId();
    const problems = (await def.check?.(tx, orgId, id, values)) ?? [];
    if (problems.length > 0) throw unprocessable(`The ${def.name.toLowerCase()} is invalid.`, problems);
    const record = await insertResource(tx, def.spec, orgId, id, values);
    if (!record) throw conflict(`A ${def.name.toLowerCase()} with id "${id}" already exists.`);
    await recordResourceEvent(tx, def, orgId, id, 'created');
    await bumpContentVersion(tx, orgId);
    return show(tx, def, orgId, record);
  });
}

export async function patchResource(deps: Db, def: ResourceDef, orgId: string, id: string, values: Record<string, unknown>): Promise<ResourceRecord> {
  return deps.db.transaction(async (tx) => {
    if (!(await getResource(tx, def.spec, orgId, id, true))) throw notFound(`${def.name} "${id}"`);
    const problems = (await def.check?.(tx, orgId, id, values)) ?? [];
    if (problems.length > 0) throw unprocessable(`The ${def.name.toLowerCase()} is invalid.`, problems);
    const record = (await updateResource(tx, def.spec, orgId, id, values))!;
    await recordResourceEvent(tx, def, orgId, id, 'updated');
    await bumpContentVersion(tx, orgId);
    return show(tx, def, orgId, record);
  });
}

export async function readResource(deps: Db, def: ResourceDef, orgId: string, id: string): Promise<ResourceRecord> {
  const record = await getResource(deps.db, def.spec, orgId, id);
  if (!record) throw notFound(`${def.name} "${id}"`);
  return show(deps.db, def, orgId, record);
}

export async function listResourcePage(deps: Db, def: ResourceDef, orgId: string, page: { offset: number; limit: number }) {
  const { items, total } = await listResources(deps.db, def.spec, orgId, page);
  const shown: ResourceRecord[] = [];
  for (const r of items) shown.push(await show(deps.db, def, orgId, r));
  return { items: shown, total };
}

export async function removeResource(deps: Db, def: ResourceDef, orgId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await getResource(tx, def.spec, orgId, id, true))) throw notFound(`${def.name} "${id}"`);
    await def.beforeDelete?.(tx, orgId, id);
    await deleteResource(tx, def.spec, orgId, id);
    await recordResourceEvent(tx, def, orgId, id, 'deleted');
    await bumpContentVersion(tx, orgId);
  });
}
