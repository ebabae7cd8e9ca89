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
