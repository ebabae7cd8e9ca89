import { and, or, type SqlParams } from '../sql-params.js';
import { has, idFilterSql, stringFilterSql, type IdFilter, type StringFilter } from './scalar-filters.js';

/** Filter inputs of the built-in collections (sections, authors, labels, lists, assets): column → kind. */
export type TableFilterSpec = Record<string, { column: string; kind: 'string' | 'id' }>;

export function tableFilterSql(spec: TableFilterSpec, f: Record<string, unknown>, alias: string, params: SqlParams): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(f)) {
    if (!has(value)) continue;
    if (key === 'and') parts.push(and((value as Array<Record<string, unknown>>).filter(has).map((g) => tableFilterSql(spec, g, alias, params))));
    else if (key === 'or') parts.push(or((value as Array<Record<string, unknown>>).filter(has).map((g) => tableFilterSql(spec, g, alias, params))));
    else if (spec[key]) {
      const x = `${alias}.${spec[key].column}`;
      parts.push(spec[key].kind === 'id' ? idFilterSql(x, value as IdFilter, params) : stringFilterSql(x, value as StringFilter, params));
    }
  }
  return and(parts);
}
