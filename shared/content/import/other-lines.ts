import { z } from 'zod';
import { isAppError } from '../../errors/index.js';
import { findSite, insertSite } from '../../tenancy/site-repository.js';
import { authorDef } from '../authors.js';
import type { ContentDeps } from '../deps.js';
import { labelDef } from '../labels.js';
import { listDef, putListEntries } from '../lists.js';
import { authorInputSchema, labelInputSchema, listEntriesSchema, listInputSchema, sectionInputSchema } from '../resource-input.js';
import { modelInputSchema } from '../model-input.js';
import { putModel } from '../models.js';
import { getResource } from '../resource-repository.js';
import { createResource, patchResource, type ResourceDef } from '../resources.js';
import { sectionDef } from '../sections.js';
import { describeIssues } from './line-helpers.js';
import type { ImportState, LineResult } from './types.js';

const siteLineSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64').optional(),
  name: z.string().trim().min(1).max(200),
  externalId: z.string().max(200).optional(),
});
const modelLineSchema = modelInputSchema.extend({ alias: z.string().min(1).max(64) });
const listLineSchema = listInputSchema.extend({ entries: listEntriesSchema.optional() });

const RESOURCES: Record<string, { def: ResourceDef; schema: z.ZodType<Record<string, unknown> & { id?: string }> }> = {
  section: { def: sectionDef, schema: sectionInputSchema },
  author: { def: authorDef, schema: authorInputSchema },
  label: { def: labelDef, schema: labelInputSchema },
};

/** Creates, or with a known id updates, one section/author/label/list (PUT semantics). */
async function upsertResource(deps: ContentDeps, orgId: string, def: ResourceDef, input: Record<string, unknown> & { id?: string }) {
  const { id, ...values } = input;
  if (id !== undefined && (await getResource(deps.db, def.spec, orgId, id))) return patchResource(deps, def, orgId, id, values);
  return createResource(deps, def, orgId, input);
}

/**
 * Applies one non-entry line through the same domain functions as the REST API. Sites and
 * resources with a known id are kept/updated, so an import can be re-run.
 */
export async function applyOtherLine(deps: ContentDeps, state: ImportState, line: number, type: string, body: unknown): Promise<LineResult> {
  const fail = (errors: string[]): LineResult => ({ line, type, ok: false, errors });
  try {
    if (type === 'site') {
      const p = siteLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const existing = p.data.id ? await findSite(deps.db, state.orgId, p.data.id) : null;
      const site = existing ?? (await insertSite(deps.db, state.orgId, p.data));
      return { line, type, ok: true, id: site.id };
    }
    if (type === 'model') {
      const p = modelLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const { alias, ...input } = p.data;
      const { model } = await putModel(deps, state.orgId, alias, input);
      state.models.set(alias, model);
      return { line, type, ok: true, id: model.alias };
    }
    if (type === 'list') {
      const p = listLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const { entries, ...input } = p.data;
      const list = await upsertResource(deps, state.orgId, listDef, input);
      if (entries) await putListEntries(deps, state.orgId, list.id, Array.isArray(entries) ? entries : entries.entries);
      return { line, type, ok: true, id: list.id };
    }
    const resource = RESOURCES[type];
    const p = resource.schema.safeParse(body);
    if (!p.success) return fail(describeIssues(p.error));
    const record = await upsertResource(deps, state.orgId, resource.def, p.data);
    return { line, type, ok: true, id: record.id };
  } catch (err) {
    if (isAppError(err)) return fail(err.reasons);
    throw err;
  }
}
