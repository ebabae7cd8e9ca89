import { z } from 'zod';
import { isAppError } from '../../errors/index.js';
import { findSite, insertSite } from '../../tenancy/site-repository.js';
import { authorDef } from '../authors.js';
import type { ContentDeps } from '../deps.js';
import { labelDef } from '../labels.js';
import { listDef, putListEntries } from '../lists.js';
import { authorInputSchema, labelInputSchema, listEntriesSchema, listInputSchema, sectionInputSchema, sectionMediaSchema } from '../resource-input.js';
import { localeLineSchema } from '../locale-input.js';
import { putLocale } from '../locales.js';
import { componentInputSchema } from '../component-rules.js';
import { putComponent } from '../components.js';
import { modelInputSchema } from '../model-input.js';
import { putModel } from '../models.js';
import { getResource } from '../resource-repository.js';
import { createResource, patchResource, type ResourceDef } from '../resources.js';
import { putSectionMedia, sectionDef } from '../sections.js';
import { describeIssues } from './line-helpers.js';
import type { ImportState, LineResult } from './types.js';

const siteLineSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64').optional(),
  name: z.string().trim().min(1).max(200),
  externalId: z.string().max(200).optional(),
});
const modelLineSchema = modelInputSchema.extend({ alias: z.string().min(1).max(64) });
const componentLineSchema = componentInputSchema.extend({ alias: z.string().min(1).max(64) });
const listLineSchema = listInputSchema.extend({ entries: listEntriesSchema.optional() });
const sectionLineSchema = sectionInputSchema.extend({ mediaIds: sectionMediaSchema.optional() });

/** One kind of resource line; `then` applies a member the record's own call does not take (a list's entries, a section's media). */
interface ResourceLine {
  def: ResourceDef;
  schema: z.ZodType<Record<string, unknown> & { id?: string }>;
  then?: { member: string; apply(deps: ContentDeps, orgId: string, id: string, value: unknown): Promise<unknown> };
}

/** A list given bare or wrapped in an object under `key`, as the REST call takes it. */
const unwrap = <T>(value: T[] | Record<string, T[]>, key: string): T[] => (Array.isArray(value) ? value : value[key]);

const RESOURCES: Record<string, ResourceLine> = {
  section: {
    def: sectionDef,
    schema: sectionLineSchema,
    then: { member: 'mediaIds', apply: (deps, orgId, id, v) => putSectionMedia(deps, orgId, id, unwrap(v as z.infer<typeof sectionMediaSchema>, 'assetIds')) },
  },
  author: { def: authorDef, schema: authorInputSchema },
  label: { def: labelDef, schema: labelInputSchema },
  list: {
    def: listDef,
    schema: listLineSchema,
    then: { member: 'entries', apply: (deps, orgId, id, v) => putListEntries(deps, orgId, id, unwrap(v as z.infer<typeof listEntriesSchema>, 'entries')) },
  },
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
    if (type === 'locale') {
      const p = localeLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const { locale } = await putLocale(deps, state.orgId, p.data);
      return { line, type, ok: true, id: locale.code };
    }
    if (type === 'model') {
      const p = modelLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const { alias, ...input } = p.data;
      const { model } = await putModel(deps, state.orgId, alias, input);
      state.models.set(alias, model);
      return { line, type, ok: true, id: model.alias };
    }
    if (type === 'component') {
      const p = componentLineSchema.safeParse(body);
      if (!p.success) return fail(describeIssues(p.error));
      const { alias, ...input } = p.data;
      const { component } = await putComponent(deps, state.orgId, alias, input);
      // models read earlier carry the components as they were
      state.models.clear();
      return { line, type, ok: true, id: component.alias };
    }
    const resource = RESOURCES[type];
    const p = resource.schema.safeParse(body);
    if (!p.success) return fail(describeIssues(p.error));
    const { [resource.then?.member ?? '']: extra, ...input } = p.data;
    const record = await upsertResource(deps, state.orgId, resource.def, input);
    if (resource.then && extra !== undefined) await resource.then.apply(deps, state.orgId, record.id, extra);
    return { line, type, ok: true, id: record.id };
  } catch (err) {
    if (isAppError(err)) return fail(err.reasons);
    throw err;
  }
}
