import type { Db } from '../adapters/db/index.js';
import { resultInfo, type ResultInfo } from '../envelope.js';
import { notFound } from '../errors/index.js';
import { requireProject } from '../tenancy/project-repository.js';
import { parseInput } from '../validation.js';
import { checkOutputGroup } from './check-output-group.js';
import { toDetail, type OutputGroupDetail } from './detail.js';
import { parseOutputGroupId } from './group-id.js';
import { outputGroupInputSchema } from './output-group-input.js';
import { toListItem, type OutputGroupListItem } from './list-item.js';
import * as repo from './output-group-repository.js';

/**
 * The output-group use cases behind both routers. Every call resolves the project inside the
 * caller's organization first, so another tenant's project ids are plain 404s.
 */
export interface GroupRef {
  orgId: string;
  projectId: string;
  /** The raw `{id}` path segment. */
  id: string;
}

/** Shape (400) then catalog and cross-field rules (422). */
const readBody = (body: unknown) => checkOutputGroup(parseInput(outputGroupInputSchema, body));

export async function createOutputGroup(db: Db, scope: { orgId: string; projectId: string }, body: unknown): Promise<OutputGroupDetail> {
  await requireProject(db, scope.orgId, scope.projectId);
  const spec = readBody(body);
  return toDetail(await repo.insertOutputGroup(db, scope, spec));
}

export async function replaceOutputGroup(db: Db, ref: GroupRef, body: unknown): Promise<OutputGroupDetail> {
  const id = parseOutputGroupId(ref.id);
  await requireProject(db, ref.orgId, ref.projectId);
  const spec = readBody(body);
  const saved = await repo.replaceOutputGroup(db, { ...ref, id }, spec);
  if (!saved) throw notFound('Output group');
  return toDetail(saved);
}

export async function deleteOutputGroup(db: Db, ref: GroupRef): Promise<{ id: string }> {
  const id = parseOutputGroupId(ref.id);
  await requireProject(db, ref.orgId, ref.projectId);
  if (!(await repo.deleteOutputGroup(db, { ...ref, id }))) throw notFound('Output group');
  return { id: String(id) };
}

export async function getOutputGroup(db: Db, ref: GroupRef): Promise<OutputGroupDetail> {
  const id = parseOutputGroupId(ref.id);
  await requireProject(db, ref.orgId, ref.projectId);
  const group = await repo.findOutputGroup(db, { ...ref, id });
  if (!group) throw notFound('Output group');
  return toDetail(group);
}

export async function listOutputGroups(
  db: Db,
  scope: { orgId: string; projectId: string },
  page: { pageIndex: number; pageSize: number; offset: number; limit: number },
): Promise<{ items: OutputGroupListItem[]; info: ResultInfo }> {
  await requireProject(db, scope.orgId, scope.projectId);
  const { items, total } = await repo.listOutputGroups(db, scope, page);
  return { items: items.map(toListItem), info: resultInfo(page, total) };
}
