import type { GraphQLSchema, ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { EventBus } from '../../shared/adapters/bus/index.js';
import type { Queryable } from '../../shared/adapters/db/index.js';
import { orgModels } from '../../shared/delivery/delivery-context.js';
import type { OrgModels } from '../../shared/delivery/loaders.js';
import { readOrgLocales, readOrgModels, readOrgSchemaState, type GraphqlLimits } from '../../shared/delivery/org-schema-source.js';
import { buildDeliverySchema } from '../../shared/delivery/schema/build-schema.js';
import { limitRules } from './limit-rules.js';

/** One org's built schema with what requests need alongside it. */
export interface OrgSchema {
  orgId: string;
  schemaVersion: number;
  schema: GraphQLSchema;
  models: OrgModels;
  limits: GraphqlLimits;
  /** Depth / alias / directive rules for this org's limits, built once with the schema. */
  rules: ValidationRule[];
  /** A role's view of the schema (its readable models, without its hidden fields): the view's key; absent for the whole schema. */
  view?: string;
}

/** What a role sees of the models: which it may read, and which fields it may not. */
export interface ModelView {
  /** Identifies the view (the same view → the same built schema). */
  key: string;
  readable(model: string): boolean;
  hidden(model: string): readonly string[];
}

export interface SchemaCacheOptions {
  db: Queryable;
  bus: EventBus;
  /** @default 200 organizations */
  max?: number;
  /**
   * How long a cached schema is trusted without re-reading the org's schema version. Bus
   * messages invalidate at once; this bounds staleness if one is lost.
   * @default 5000 ms
   */
  recheckMs?: number;
}

interface Entry {
  value: OrgSchema;
  checkedAt: number;
}

/**
 * Per-org schema cache: LRU-bounded, built once per org and schema version even
 * under concurrent first requests (single flight), dropped when a `schema-changed` message
 * arrives (from this or another instance via Redis pub/sub).
 */
export class SchemaCache {
  readonly stats = { builds: 0 };
  private readonly lru: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<OrgSchema | null>>();
  /** Highest schema version announced per org: a build that read an older one is not kept. */
  private readonly announced = new Map<string, number>();
  private readonly unsubscribe: () => void;
  /** Roles' views, by org, schema version and view; `schema` is the whole schema they were made from. */
  private readonly views = new LRUCache<string, { schema: GraphQLSchema; value: OrgSchema }>({ max: 200 });

  constructor(private readonly options: SchemaCacheOptions) {
    this.lru = new LRUCache({ max: options.max ?? 200 });
    this.unsubscribe = options.bus.subscribe('schema-changed', ({ orgId, schemaVersion }) => {
      this.announced.set(orgId, Math.max(schemaVersion, this.announced.get(orgId) ?? 0));
      const entry = this.lru.get(orgId);
      if (entry && entry.value.schemaVersion < schemaVersion) this.lru.delete(orgId);
    });
  }

  /** The org's current schema; null when the org does not exist. */
  async get(orgId: string): Promise<OrgSchema | null> {
    const entry = this.lru.get(orgId);
    if (entry && Date.now() - entry.checkedAt < (this.options.recheckMs ?? 5000)) return entry.value;
    let pending = this.inflight.get(orgId);
    if (!pending) {
      pending = this.refresh(orgId, entry).finally(() => this.inflight.delete(orgId));
      this.inflight.set(orgId, pending);
    }
    return pending;
  }

  /**
   * The org's schema as `view` sees it: models it may not read are absent, and so are hidden
   * fields (querying or filtering by one is a validation error). Built once per schema version
   * and view, then shared.
   */
  view(org: OrgSchema, view: ModelView): OrgSchema {
    const key = `${org.orgId}:${org.schemaVersion}:${view.key}`;
    const cached = this.views.get(key);
    if (cached && cached.schema === org.schema) return cached.value;
    const models = org.models.list
      .filter((m) => view.readable(m.alias))
      .map((m) => ({ ...m, fields: m.fields.filter((f) => !view.hidden(m.alias).includes(f.alias)) }));
    const value: OrgSchema = { ...org, schema: buildDeliverySchema(models, org.models.locales), models: orgModels(models, org.models.locales), view: view.key };
    this.views.set(key, { schema: org.schema, value });
    return value;
  }

  close(): void {
    this.unsubscribe();
    this.lru.clear();
  }

  private async refresh(orgId: string, previous: Entry | undefined): Promise<OrgSchema | null> {
    const state = await readOrgSchemaState(this.options.db, orgId);
    if (!state) return null;
    if (previous && previous.value.schemaVersion === state.schemaVersion && sameLimits(previous.value.limits, state.limits)) {
      previous.checkedAt = Date.now();
      return previous.value;
    }
    const [models, locales] = await Promise.all([readOrgModels(this.options.db, orgId), readOrgLocales(this.options.db, orgId)]);
    this.stats.builds++;
    const value: OrgSchema = {
      orgId,
      schemaVersion: state.schemaVersion,
      schema: buildDeliverySchema(models, locales),
      models: orgModels(models, locales),
      limits: state.limits,
      rules: limitRules(state.limits),
    };
    if ((this.announced.get(orgId) ?? 0) <= state.schemaVersion) this.lru.set(orgId, { value, checkedAt: Date.now() });
    return value;
  }
}

const sameLimits = (a: GraphqlLimits, b: GraphqlLimits) => JSON.stringify(a) === JSON.stringify(b);
