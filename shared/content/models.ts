import { conflict, notFound, unprocessable } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import type { ModelInput } from './model-input.js';
import { listComponentRows } from './component-repository.js';
import { checkModel } from './model-rules.js';
import { deleteModelRow, getModel, listModels, modelHasEntries, upsertModel, type StoredModel } from './model-repository.js';
import { bumpSchemaVersion, lockModels } from './org-versions.js';
import { recordEvents } from '../events/record-events.js';
import { applyRuleChanges, type BrokenEntries } from './validations/broken-entries.js';

export { getModel, listModels, type StoredModel };

/**
 * Creates or replaces a model; bumps the org's schema version and tells every instance.
 * `brokenEntries` counts, per validation rule added or changed, the entries that break it
 * (allowed: they stay, and must keep the rule on their next write).
 */
export async function putModel(
  deps: ContentDeps,
  orgId: string,
  alias: string,
  input: ModelInput,
): Promise<{ model: StoredModel; created: boolean; brokenEntries: BrokenEntries[] }> {
  const { model, created, schemaVersion, brokenEntries } = await deps.db.transaction(async (tx) => {
    await lockModels(tx, orgId);
    const all = await listModels(tx, orgId);
    const previous = all.find((m) => m.alias === alias) ?? null;
    const others = all.filter((m) => m.alias !== alias);
    // Waits for entry writes in flight on this model, so the check below sees their entries.
    if (previous) await getModel(tx, orgId, alias, { lock: 'update' });
    const hasEntries = previous ? await modelHasEntries(tx, orgId, alias) : false;
    const components = await listComponentRows(tx, orgId);
    const checked = checkModel(alias, input, { others, previous, hasEntries, components });
    if ('problems' in checked) throw unprocessable(`Model "${alias}" is invalid.`, checked.problems);
    const stored = await upsertModel(tx, orgId, { alias, ...checked.model });
    const brokenEntries = await applyRuleChanges(tx, orgId, previous, stored, hasEntries);
    await recordEvents(tx, orgId, [
      { type: 'model.changed', subject: `model:${alias}`, model: alias, data: { id: stored.id, alias, created: previous === null, fields: stored.fields.map((f) => f.alias) } },
    ]);
    return { model: stored, created: previous === null, brokenEntries, schemaVersion: await bumpSchemaVersion(tx, orgId) };
  });
  await deps.bus.publish('schema-changed', { orgId, schemaVersion });
  return { model, created, brokenEntries };
}

export async function requireModel(deps: Pick<ContentDeps, 'db'>, orgId: string, alias: string): Promise<StoredModel> {
  const model = await getModel(deps.db, orgId, alias);
  if (!model) throw notFound(`Model "${alias}"`);
  return model;
}

/** Deletes a model that no entry uses and no other model allows as a reference target. */
export async function deleteModel(deps: ContentDeps, orgId: string, alias: string): Promise<void> {
  const schemaVersion = await deps.db.transaction(async (tx) => {
    await lockModels(tx, orgId);
    const all = await listModels(tx, orgId);
    if (!all.some((m) => m.alias === alias)) throw notFound(`Model "${alias}"`);
    await getModel(tx, orgId, alias, { lock: 'update' });
    if (await modelHasEntries(tx, orgId, alias)) throw conflict(`Model "${alias}" still has entries.`);
    const referrer = all.find((m) => m.alias !== alias && m.fields.some((f) => f.allowedModels.includes(alias)));
    if (referrer) throw conflict(`Model "${referrer.alias}" lists "${alias}" in allowedModels.`);
    const component = (await listComponentRows(tx, orgId)).find((c) => c.fields.some((f) => f.allowedModels.includes(alias)));
    if (component) throw conflict(`Component "${component.alias}" lists "${alias}" in allowedModels.`);
    const deleted = all.find((m) => m.alias === alias)!;
    await deleteModelRow(tx, orgId, alias);
    await recordEvents(tx, orgId, [{ type: 'model.deleted', subject: `model:${alias}`, model: alias, data: { id: deleted.id, alias } }]);
    return bumpSchemaVersion(tx, orgId);
  });
  await deps.bus.publish('schema-changed', { orgId, schemaVersion });
}
