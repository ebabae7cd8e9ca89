import { findLocales } from '../content/locale-repository.js';
import { orgLocales, type OrgLocales } from '../content/locale-types.js';
import { listModels } from '../content/models.js';
import type { ModelDefinition } from '../content/model-types.js';
import type { Queryable } from '../adapters/db/index.js';
import { findSchemaState } from '../tenancy/organization-repository.js';

/** Per-org GraphQL limits; `organizations.limits` overrides any of them. */
export interface GraphqlLimits {
  maxDocumentBytes: number;
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  /** Fields of the document with fragment spreads expanded (a spread counts each time). */
  maxExpandedFields: number;
}

export const DEFAULT_LIMITS: GraphqlLimits = {
  maxDocumentBytes: 16 * 1024,
  maxTokens: 3000,
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 50,
  maxCost: 10_000,
  maxExpandedFields: 5_000,
};

export interface OrgSchemaState {
  schemaVersion: number;
  limits: GraphqlLimits;
}

function limitsOf(raw: unknown): GraphqlLimits {
  const out = { ...DEFAULT_LIMITS };
  if (raw && typeof raw === 'object') {
    for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof GraphqlLimits>) {
      const v = (raw as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isInteger(v) && v > 0) out[key] = v;
    }
  }
  return out;
}

/** The org's schema version and limits: one primary-key read. Null for an unknown org. */
export async function readOrgSchemaState(db: Queryable, orgId: string): Promise<OrgSchemaState | null> {
  const state = await findSchemaState(db, orgId);
  return state && { schemaVersion: state.schemaVersion, limits: limitsOf(state.limits) };
}

/** The models schema generation reads (the content-management side owns the table). */
export function readOrgModels(db: Queryable, orgId: string): Promise<ModelDefinition[]> {
  return listModels(db, orgId);
}

/** The org's locales as schema generation and readers use them; null when it declares none. */
export async function readOrgLocales(db: Queryable, orgId: string): Promise<OrgLocales | null> {
  return orgLocales(await findLocales(db, orgId));
}
