import type { FieldType } from '../../types';
import { FIELD_TYPES, type FieldDraft } from './model-draft';
import { ValidationsEditor } from './ValidationsEditor';

interface Props {
  field: FieldDraft;
  /** 1-based place in the list: every control is named "… of field N". */
  place: number;
  count: number;
  /** Models a reference may allow, components a component field may hold. */
  models: { alias: string; name: string }[];
  components: { alias: string; name: string }[];
  /** Components cannot hold localized fields (the API says so; the box is offered only to models). */
  inComponent?: boolean;
  disabled: boolean;
  onChange: (f: FieldDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function Choices({ legend, options, chosen, onChange }: { legend: string; options: { alias: string; name: string }[]; chosen: string[]; onChange: (c: string[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.length === 0 && <span className="muted">None yet.</span>}
      {options.map((o) => (
        <label key={o.alias} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(o.alias)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, o.alias] : chosen.filter((c) => c !== o.alias))}
          />
          {o.name}
        </label>
      ))}
    </fieldset>
  );
}

/** One field of a model or component: its alias, type and every setting the API takes for it. */
export function FieldEditor({ field: f, place, count, models, components, inComponent, disabled, onChange, onMove, onRemove }: Props) {
  const label = `field ${place}`;
  const set = (patch: Partial<FieldDraft>) => onChange({ ...f, ...patch });
  return (
    <li className="field-editor">
      <fieldset disabled={disabled}>
        <legend>
          {f.alias || 'New field'} <span className="muted">({f.type}{f.list ? ', list' : ''})</span>
        </legend>
        <div className="row">
          <label>
            Alias of {label}
            <input value={f.alias} onChange={(e) => set({ alias: e.target.value })} />
          </label>
          <label>
            Type of {label}
            <select value={f.type} onChange={(e) => set({ type: e.target.value as FieldType })}>
              {FIELD_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          {f.type === 'number' && (
            <label>
              Number format of {label}
              <select value={f.numberFormat} onChange={(e) => set({ numberFormat: e.target.value as FieldDraft['numberFormat'] })}>
                <option value="">int (default)</option>
                <option value="int">int</option>
                <option value="decimal">decimal</option>
              </select>
            </label>
          )}
        </div>
        {f.savedAlias && f.alias.trim() !== f.savedAlias && (
          <p className="hint">Renamed from “{f.savedAlias}”: the API stores this as a new field, and the values under “{f.savedAlias}” are dropped.</p>
        )}
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={f.required} onChange={(e) => set({ required: e.target.checked })} />
            Required ({label})
          </label>
          <label className="check">
            <input type="checkbox" checked={f.list} onChange={(e) => set({ list: e.target.checked })} />
            List ({label})
          </label>
          {!inComponent && (
            <label className="check">
              <input type="checkbox" checked={f.localized} onChange={(e) => set({ localized: e.target.checked })} />
              Localized ({label})
            </label>
          )}
        </div>
        {f.type === 'reference' && <Choices legend={`Allowed models of ${label} (none: any)`} options={models} chosen={f.allowedModels} onChange={(c) => set({ allowedModels: c })} />}
        {f.type === 'component' && <Choices legend={`Components of ${label}`} options={components} chosen={f.components} onChange={(c) => set({ components: c })} />}
        <ValidationsEditor label={label} type={f.type} value={f.validations} onChange={(v) => set({ validations: v })} disabled={disabled} />
        <div className="actions">
          <button type="button" onClick={() => onMove(-1)} disabled={place === 1}>
            Move {label} up
          </button>
          <button type="button" onClick={() => onMove(1)} disabled={place === count}>
            Move {label} down
          </button>
          <button type="button" onClick={onRemove}>
            Remove {label}
          </button>
        </div>
      </fieldset>
    </li>
  );
}
