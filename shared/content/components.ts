import { conflict, notFound, unprocessable } from '../errors/index.js';
import { recordEvents } from '../events/record-events.js';
import { checkComponent, holdersOf, type ComponentInput } from './component-rules.js';
import { deleteComponentRow, getComponentRow, listComponentRows, modelsHaveEntries, upsertComponent, type StoredComponent } from './component-repository.js';
import type { ContentDeps } from './deps.js';
import { listModels } from './model-repository.js';
import { bumpSchemaVersion, lockModels } from './org-versions.js';

export { listComponentRows as listComponents, type StoredComponent };

/**
 * Creates or replaces a component; bumps the org's schema version (each component is a GraphQL
 * type) and tells every instance. Written under the models' lock: the two share one namespace.
 */
export async function putComponent(deps: ContentDeps, orgId: string, alias: string, input: ComponentInput): Promise<{ component: StoredComponent; created: boolean }> {
  const { component, created, schemaVersion } = await deps.db.transaction(async (tx) => {
    await lockModels(tx, orgId);
    const [models, all] = [await listModels(tx, orgId), await listComponentRows(tx, orgId)];
    const previous = all.find((c) => c.alias === alias) ?? null;
    const others = all.filter((c) => c.alias !== alias);
    const holders = previous ? holdersOf(alias, models, all) : { models: [], components: [] };
    const usedWithEntries = await modelsHaveEntries(tx, orgId, holders.models);
    const checked = checkComponent(alias, input, { models, others, previous, usedWithEntries });
    if ('problems' in checked) throw unprocessable(`Component "${alias}" is invalid.`, checked.problems);
    const stored = await upsertComponent(tx, orgId, { alias, ...checked.component });
    await recordEvents(tx, orgId, [
      { type: 'component.changed', subject: `component:${alias}`, data: { id: stored.id, alias, created: previous === null, fields: stored.fields.map((f) => f.alias) } },
    ]);
    return { component: stored, created: previous === null, schemaVersion: await bumpSchemaVersion(tx, orgId) };
  });
  await deps.bus.publish('schema-changed', { orgId, schemaVersion });
  return { component, created };
}

export async function requireComponent(deps: Pick<ContentDeps, 'db'>, orgId: string, alias: string): Promise<StoredComponent> {
  const component = await getComponentRow(deps.db, orgId, alias);
  if (!component) throw notFound(`Component "${alias}"`);
  return component;
}

/** Deletes a component no model or other component holds (409 naming the first holder). */
export async function deleteComponent(deps: ContentDeps, orgId: string, alias: string): Promise<void> {
  const schemaVersion = await deps.db.transaction(async (tx) => {
    await lockModels(tx, orgId);
    const [models, all] = [await listModels(tx, orgId), await listComponentRows(tx, orgId)];
    const deleted = all.find((c) => c.alias === alias);
    if (!deleted) throw notFound(`Component "${alias}"`);
    const model = models.find((m) => m.fields.some((f) => f.components?.includes(alias)));
    if (model) throw conflict(`Component "${alias}" is used by model "${model.alias}" (field "${model.fields.find((f) => f.components?.includes(alias))?.alias}"); remove it from the model first.`);
    const holder = all.find((c) => c.fields.some((f) => f.components?.includes(alias)));
    if (holder) throw conflict(`Component "${alias}" is used by component "${holder.alias}"; remove it from that component first.`);
    await deleteComponentRow(tx, orgId, alias);
    await recordEvents(tx, orgId, [{ type: 'component.deleted', subject: `component:${alias}`, data: { id: deleted.id, alias } }]);
    return bumpSchemaVersion(tx, orgId);
  });
  await deps.bus.publish('schema-changed', { orgId, schemaVersion });
}
