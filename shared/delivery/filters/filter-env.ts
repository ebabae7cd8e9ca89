import type { ModelDefinition } from '../../content/model-types.js';
import type { LocaleChain } from '../field-sql.js';
import type { SqlParams } from '../sql-params.js';

export type DeliveryScope = 'delivery' | 'preview';

/** What filter compilation needs besides the filter itself. */
export interface FilterEnv {
  params: SqlParams;
  /** Placeholder of the org id parameter. */
  org: string;
  scope: DeliveryScope;
  models: ReadonlyMap<string, ModelDefinition>;
  /** The non-default locales whose values localized fields are compared in, in turn (see `fieldValueSql`). */
  locale?: LocaleChain;
  /** Set when a status filter asks for DELETED entries (preview hides them otherwise). */
  flags: { wantsDeleted: boolean };
}

/**
 * Rows a token may read: delivery reads the last published version of live
 * entries; preview reads the current version of every entry but hides DELETED ones unless a
 * status filter asks for them.
 */
export function visibleSql(alias: string, scope: DeliveryScope, includeDeleted = false): string {
  if (scope === 'delivery') return `${alias}.in_delivery`;
  return includeDeleted ? `${alias}.in_preview` : `(${alias}.in_preview AND ${alias}.status <> 'DELETED')`;
}
