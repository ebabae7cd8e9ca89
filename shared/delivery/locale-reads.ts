import { localizedFields, unknownLocaleMessage, type OrgLocales } from '../content/locale-types.js';
import { badRequest } from '../errors/index.js';
import type { DeliveredEntryRow } from './entry-row.js';
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

/**
 * Per request: the locale each value of a localized query was read in. A field given `locale`
 * reads its entries in it, and so does everything below them (references, relations, rich
 * content, lists): each value a resolver returns under a locale is marked with it, and each
 * entry row becomes a view of itself in that locale (its localized fields and title from the
 * chain). Rows stay shared in the loaders; views and marked copies belong to one path of the
 * answer, so two locales in one document never mix.
 */
export class LocaleReads {
  constructor(private readonly models: OrgModels) {}

  get org(): OrgLocales | null {
    return this.models.locales;
  }

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

  private view(value: WithViews, scope: LocaleScope): DeliveredEntryRow {
    // a view asked in another locale: a view of the row itself, not of the view
    const row: WithViews = Object.hasOwn(value, SCOPE) ? (Object.getPrototypeOf(value) as WithViews) : value;
    const byCode = (row[VIEWS] ??= new Map());
    let view = byCode.get(scope.code);
    if (!view) {
      const model = this.models.byAlias.get(row.model_alias);
      const localized = this.models.localized.get(row.model_alias) ?? [];
      const fields = row.fields ? localizedFields(row.fields, row.locales, localized, scope.chain) : row.fields;
      const title = model?.titleField && localized.includes(model.titleField) && fields ? ((fields[model.titleField] as string | undefined) ?? null) : row.title;
      // the row as its prototype: a view costs three properties, not a copy of every column
      view = Object.create(row) as DeliveredEntryRow & Scoped;
      view.fields = fields;
      view.title = title;
      (view as Scoped)[SCOPE] = scope;
      byCode.set(scope.code, view);
    }
    return view;
  }
}
