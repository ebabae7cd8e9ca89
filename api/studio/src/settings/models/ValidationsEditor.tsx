import { useState } from 'react';
import type { FieldType } from '../../types';
import type { Validation } from './model-draft';

const RULES = ['unique', 'pattern', 'size', 'range', 'in', 'assetTypes', 'imageSize'] as const;
type Rule = (typeof RULES)[number];

const ruleOf = (v: Validation) => Object.keys(v)[0] as Rule;
const num = (s: string) => (s.trim() === '' ? undefined : Number(s));
const words = (s: string) =>
  s
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
const bounds = (min: string, max: string, asText = false) => {
  const read = (v: string) => (asText ? v.trim() || undefined : num(v));
  return Object.fromEntries(Object.entries({ min: read(min), max: read(max) }).filter(([, v]) => v !== undefined));
};

const FRESH: Record<Rule, Validation> = {
  unique: { unique: true },
  pattern: { pattern: { regex: '' } },
  size: { size: {} },
  range: { range: {} },
  in: { in: [] },
  assetTypes: { assetTypes: [] },
  imageSize: { imageSize: {} },
};

type Obj = Record<string, unknown>;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** One rule's settings; `label` names the field so every control's accessible name is unique. */
function RuleInputs({ v, label, type, onChange }: { v: Validation; label: string; type: FieldType; onChange: (v: Validation) => void }) {
  const rule = ruleOf(v);
  // a datetime's range is two instants (ISO text); every other bound is a number
  const asText = rule === 'range' && type === 'datetime';
  const body = (v[rule] ?? {}) as Obj;
  const set = (patch: Obj) => onChange({ [rule]: { ...body, ...patch } });
  switch (rule) {
    case 'unique':
      return <span className="muted">No two entries hold the same value.</span>;
    case 'pattern':
      return (
        <>
          <label>
            Pattern of {label}
            <input value={str(body.regex)} onChange={(e) => set({ regex: e.target.value })} />
          </label>
          <label>
            Flags of {label}
            <input value={str(body.flags)} onChange={(e) => set({ flags: e.target.value || undefined })} />
          </label>
          <label>
            Message of {label}
            <input value={str(body.message)} onChange={(e) => set({ message: e.target.value || undefined })} />
          </label>
        </>
      );
    case 'size':
    case 'range':
      return (
        <>
          <label>
            {rule === 'size' ? 'Minimum size' : 'Minimum'} of {label}
            <input value={str(body.min)} onChange={(e) => onChange({ [rule]: bounds(e.target.value, str(body.max), asText) })} />
          </label>
          <label>
            {rule === 'size' ? 'Maximum size' : 'Maximum'} of {label}
            <input value={str(body.max)} onChange={(e) => onChange({ [rule]: bounds(str(body.min), e.target.value, asText) })} />
          </label>
        </>
      );
    case 'in':
    case 'assetTypes':
      return (
        <label>
          {rule === 'in' ? 'Allowed values' : 'Allowed asset types'} of {label} (comma-separated)
          <input
            value={(v[rule] as (string | number)[]).join(', ')}
            onChange={(e) => onChange({ [rule]: rule === 'in' && type === 'number' ? words(e.target.value).map(Number) : words(e.target.value) })}
          />
        </label>
      );
    case 'imageSize': {
      const w = (body.width ?? {}) as Obj;
      const h = (body.height ?? {}) as Obj;
      const side = (name: 'width' | 'height', b: Obj, which: 'min' | 'max', value: string) => onChange({ imageSize: { ...body, [name]: which === 'min' ? bounds(value, str(b.max)) : bounds(str(b.min), value) } });
      return (
        <>
          {(['min', 'max'] as const).map((which) => (
            <label key={`w${which}`}>
              {which === 'min' ? 'Minimum' : 'Maximum'} width of {label}
              <input value={str(w[which])} onChange={(e) => side('width', w, which, e.target.value)} />
            </label>
          ))}
          {(['min', 'max'] as const).map((which) => (
            <label key={`h${which}`}>
              {which === 'min' ? 'Minimum' : 'Maximum'} height of {label}
              <input value={str(h[which])} onChange={(e) => side('height', h, which, e.target.value)} />
            </label>
          ))}
        </>
      );
    }
  }
}

/** A field's validation rules: add one of the API's rules, set it, remove it. The API judges them. */
export function ValidationsEditor({ label, type, value, onChange, disabled }: { label: string; type: FieldType; value: Validation[]; onChange: (v: Validation[]) => void; disabled: boolean }) {
  const [adding, setAdding] = useState<Rule>('pattern');
  return (
    <fieldset disabled={disabled}>
      <legend>Validations of {label}</legend>
      {value.map((v, i) => (
        <div className="row rule" key={i}>
          <strong>{ruleOf(v)}</strong>
          <RuleInputs v={v} label={label} type={type} onChange={(nv) => onChange(value.map((x, j) => (j === i ? nv : x)))} />
          <button type="button" onClick={() => onChange(value.filter((_, j) => j !== i))}>
            Remove rule {ruleOf(v)} of {label}
          </button>
        </div>
      ))}
      <div className="row">
        <label>
          Rule for {label}
          <select value={adding} onChange={(e) => setAdding(e.target.value as Rule)}>
            {RULES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => onChange([...value, FRESH[adding]])}>
          Add rule to {label}
        </button>
      </div>
    </fieldset>
  );
}
