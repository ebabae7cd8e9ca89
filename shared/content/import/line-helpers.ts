import type { z } from 'zod';
import type { ContentDeps } from '../deps.js';
import { getModel, type StoredModel } from '../model-repository.js';
import type { ImportState } from './types.js';

/** zod issues as "path: message" strings, as the REST API reports them. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    return `${path || 'line'}: ${i.message}`;
  });
}

/** The model by alias, cached for the run (model lines drop the cache entry). */
export async function modelOf(deps: Pick<ContentDeps, 'db'>, state: ImportState, alias: string): Promise<StoredModel | null> {
  if (!state.models.has(alias)) state.models.set(alias, await getModel(deps.db, state.orgId, alias));
  return state.models.get(alias) ?? null;
}
