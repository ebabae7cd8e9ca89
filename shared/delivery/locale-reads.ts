import { readInLocale, unknownLocaleMessage } from '../content/locale-types.js';
import { badRequest } from '../errors/index.js';
import { COLUMNS, type DeliveredEntryRow } from './entry-row.js';
import type { OrgModels } from './loaders.js';

/** A locale a query asked for: its code and the non-default locales to look in, in turn. */
export interface LocaleScope {
  code: string;
  chain: readonly string[];
}

const isEntryRow = (v: object): v is DeliveredEntryRow => 'model_alias' in v && 'row_id' in v;

/** The scope a value was read in, on the value itself (a view or a copy made for it). */
const SCOPE = Symbol('locale scope');
/** An entry row's views, by locale code, on the row (rows live for one request). */
const VIEWS = Symbol('locale views');

type Scoped = { [SCOPE]?: LocaleScope };
type WithViews = DeliveredEntryRow & { [VIEWS]?: Map<string, DeliveredEntryRow> };

const ROW = Symbol('row');

/**
 * An entry row as read in a locale: its own `fields` and `title`, every other column read from
 * the row by a getter. Cheaper than a copy or an object with the row as its prototype (V8 makes a
 * prototype a slow object of its own; both cost 5–7 µs a row, measured), and of one shape.
 */
class LocalizedRow {
  [ROW]: DeliveredEntryRow;
  fields: Record<string, unknown>;
  title: string | null;
  [SCOPE]: LocaleScope;

  constructor(row: DeliveredEntryRow, fields: Record<string, unknown>, title: string | null, scope: LocaleScope) {
    this[ROW] = row;
    this.fields = fields;
    this.title = title;
    this[SCOPE] = scope;
  }
}
for (const column of COLUMNS) {
  if (column === 'fields' || column === 'title') continue;
  Object.defineProperty(LocalizedRow.prototype, column, {
    get(this: LocalizedRow) {
      return (this[ROW] as unknown as Record<string, unknown>)[column];
    },
  });
}

/**
 * Per request: the locale each value of a localized query was read in. A field given `locale`
 * reads its entries in it, and so does everything below them (references, relations, rich
 * content): each value a resolver returns under a locale is marked with it, and each
 * entry row becomes a view of itself in that locale (its localized fields and title from the
 * chain). Rows stay shared in the loaders; views and marked copies belong to one path of the
 * answer, so two locales in one document never mix.
 */
export class LocaleReads {
  constructor(private readonly models: OrgModels) {}

  /** The scope of a locale code; a BAD_USER_INPUT error naming the known ones for any other. */
  scope(code: string): LocaleScope {
    const chain = this.models.locales?.chainOf(code);
    if (!chain) throw badRequest(unknownLocaleMessage(code, this.models.locales));
    return { code, chain };
  }

  /** The scope `value` was read in; null when its query asked for none. */
  of(value: unknown): LocaleScope | null {
    return typeof value === 'object' && value !== null ? (Object.hasOwn(value, SCOPE) ? ((value as Scoped)[SCOPE] ?? null) : null) : null;
  }

  /** `value` (an entry, a list, a collection, any object) as read in `scope`. */
  mark<T>(value: T, scope: LocaleScope): T {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((v: unknown) => this.mark(v, scope)) as T;
    if (this.of(value)?.code === scope.code) return value;
    if (isEntryRow(value)) return this.view(value, scope) as T;
    const copy: Scoped = { ...value };
    copy[SCOPE] = scope;
    return copy as T;
  }

  private view(row: WithViews, scope: LocaleScope): DeliveredEntryRow {
    const byCode = (row[VIEWS] ??= new Map());
    let view = byCode.get(scope.code);
    if (!view) {
      const { fields, title } = readInLocale(this.models.byAlias.get(row.model_alias), row, scope.chain);
      view = new LocalizedRow(row, fields, title, scope) as unknown as DeliveredEntryRow;
      byCode.set(scope.code, view);
    }
    return view;
  }
}
