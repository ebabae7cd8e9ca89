import { lazy, Suspense, useEffect, useState } from 'react';
import type { Field } from '../types';
import { ComponentField } from './ComponentField';
import { ReferencePicker } from './ReferencePicker';
import { ResourcePicker } from './ResourcePicker';
import { fromLocalInput, labelOf, listText, splitList, toLocalInput } from './values';

// TipTap (ProseMirror) is the biggest part of the editor: loaded with the first rich content field.
const RichContent = lazy(() => import('./RichContent'));

export interface WidgetProps {
  field: Field;
  value: unknown;
  onChange: (value: unknown) => void;
  /** A value the widget cannot send yet (JSON that does not parse), or null when it can. */
  onInvalid: (problem: string | null) => void;
  problems: string[];
  disabled: boolean;
  /** A localized field's value in another locale: its code and name (the label says it). */
  locale?: { code: string; name: string; fallback: unknown };
  /** A field inside a component: its value's path after `fields.` (`body[0].cta`), its label and its ids' base. */
  path?: string;
  label?: string;
  idBase?: string;
}

/** One field of the entry: its label (the field's name, else its alias), its widget and its problems. */
export function FieldWidget(props: WidgetProps) {
  const { field, problems, locale } = props;
  const base = props.idBase ?? `field-${field.alias}`;
  const id = locale ? `${base}-${locale.code}` : base;
  const errorId = problems.length > 0 ? `${id}-error` : undefined;
  const label = props.label ?? (locale ? `${labelOf(field)} (${locale.name})` : labelOf(field));
  const empty = props.value === undefined || props.value === null || props.value === '';
  return (
    <div className={`field field-${field.type}${problems.length ? ' invalid' : ''}`}>
      <Control {...props} field={locale ? { ...field, required: false } : field} id={id} label={label} describedBy={errorId} />
      {locale && empty && locale.fallback !== undefined && locale.fallback !== null && (
        <p className="hint">Falls back to: {typeof locale.fallback === 'string' ? locale.fallback : JSON.stringify(locale.fallback)}</p>
      )}
      {problems.length > 0 && (
        <p id={errorId} className="error">
          {problems.join('; ')}
        </p>
      )}
    </div>
  );
}

const Mark = ({ field }: { field: Field }) => (field.required ? <span className="required"> (required)</span> : null);

function Control({ field, value, onChange, onInvalid, disabled, problems, id, label, describedBy, path, locale }: WidgetProps & { id: string; label: string; describedBy?: string }) {
  const common = { id, disabled, 'aria-describedby': describedBy, 'aria-invalid': problems.length > 0 || undefined, required: field.required };
  const labelEl = (
    <label htmlFor={id}>
      {label}
      <Mark field={field} />
    </label>
  );
  const list = field.valueType === 'list';
  switch (field.type) {
    case 'boolean':
      return (
        <div className="check">
          <input {...common} required={false} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {labelEl}
        </div>
      );
    case 'number':
      if (list || field.numberFormat === 'decimal') {
        return (
          <>
            {labelEl}
            <TextAs {...common} value={list ? listText(value) : value == null ? '' : String(value)} inputMode="decimal" onText={(t) => onChange(list ? splitList(t).map((x) => (field.numberFormat === 'decimal' ? x : Number(x))) : t.trim() === '' ? null : t.trim())} />
          </>
        );
      }
      return (
        <>
          {labelEl}
          <input {...common} type="number" step={1} value={typeof value === 'number' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} />
        </>
      );
    case 'datetime':
      return (
        <>
          {labelEl}
          <input {...common} type="datetime-local" value={toLocalInput(value)} onChange={(e) => onChange(fromLocalInput(e.target.value))} />
        </>
      );
    case 'url':
      return (
        <>
          {labelEl}
          <input {...common} type="url" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} />
        </>
      );
    case 'text':
    case 'tag':
      if (list) {
        return (
          <>
            {labelEl}
            <TextAs {...common} value={listText(value)} onText={(t) => onChange(splitList(t))} />
            <span className="hint">Separate values with commas.</span>
          </>
        );
      }
      return (
        <>
          {labelEl}
          <input {...common} type="text" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} />
        </>
      );
    case 'richtext':
      return (
        <>
          {labelEl}
          <textarea {...common} rows={6} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} />
        </>
      );
    case 'json':
      return (
        <>
          {labelEl}
          <JsonArea {...common} value={value} onChange={onChange} onInvalid={onInvalid} />
        </>
      );
    case 'location':
      return <LocationInput id={id} label={label} field={field} value={value} onChange={onChange} disabled={disabled} describedBy={describedBy} />;
    case 'reference':
      return <ReferencePicker field={field} label={label} value={value} onChange={onChange} disabled={disabled} describedBy={describedBy} />;
    case 'media':
    case 'author':
    case 'section':
      return <ResourcePicker field={field} label={label} value={value} onChange={onChange} disabled={disabled} describedBy={describedBy} />;
    case 'component':
      return (
        <ComponentField
          field={field}
          id={id}
          label={label}
          // a locale's value: its nested problems are not the default locale's
          path={locale ? `${path ?? field.alias}@${locale.code}` : (path ?? field.alias)}
          value={value}
          onChange={onChange}
          onInvalid={onInvalid}
          disabled={disabled}
          describedBy={describedBy}
          Widget={FieldWidget}
        />
      );
    case 'richcontent':
      return (
        <>
          <span className="label" id={`${id}-label`}>
            {label}
            <Mark field={field} />
          </span>
          <Suspense fallback={<p className="loading">Loading the editor…</p>}>
            <RichContent labelledBy={`${id}-label`} label={label} describedBy={describedBy} value={value} onChange={onChange} disabled={disabled} />
          </Suspense>
        </>
      );
  }
}

/** A text input whose text is kept while typed (a list or a decimal is parsed from it on each change). */
function TextAs({ value, onText, ...rest }: { value: string; onText: (t: string) => void; id: string; disabled: boolean; inputMode?: 'decimal' }) {
  const [text, setText] = useState(value);
  return <input {...rest} type="text" value={text} onChange={(e) => (setText(e.target.value), onText(e.target.value))} />;
}

/** JSON in a textarea, parsed on every change: a value that does not parse is shown and not sent. */
function JsonArea({ value, onChange, onInvalid, ...rest }: { value: unknown; onChange: (v: unknown) => void; onInvalid: (p: string | null) => void; id: string; disabled: boolean; 'aria-describedby'?: string }) {
  const [text, setText] = useState(() => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2)));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => onInvalid(null), [onInvalid]);
  const change = (t: string) => {
    setText(t);
    if (t.trim() === '') {
      setProblem(null);
      onInvalid(null);
      return onChange(null);
    }
    try {
      const parsed: unknown = JSON.parse(t);
      setProblem(null);
      onInvalid(null);
      onChange(parsed);
    } catch (err) {
      const message = `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      setProblem(message);
      onInvalid(message);
    }
  };
  const problemId = `${rest.id}-json`;
  return (
    <>
      <textarea {...rest} className="code" rows={6} spellCheck={false} value={text} aria-invalid={problem ? true : undefined} aria-describedby={[rest['aria-describedby'], problem ? problemId : undefined].filter(Boolean).join(' ') || undefined} onChange={(e) => change(e.target.value)} />
      {problem && (
        <p id={problemId} className="error" role="status">
          {problem}
        </p>
      )}
    </>
  );
}

function LocationInput({ id, label, field, value, onChange, disabled, describedBy }: { id: string; label: string; field: Field; value: unknown; onChange: (v: unknown) => void; disabled: boolean; describedBy?: string }) {
  const v = (value && typeof value === 'object' ? value : {}) as { address?: string | null; latitude?: string | null; longitude?: string | null };
  const set = (key: 'address' | 'latitude' | 'longitude', s: string) => onChange({ address: v.address ?? null, latitude: v.latitude ?? null, longitude: v.longitude ?? null, [key]: s === '' ? null : s });
  return (
    <fieldset aria-describedby={describedBy}>
      <legend>
        {label}
        <Mark field={field} />
      </legend>
      <label htmlFor={`${id}-address`}>Address</label>
      <input id={`${id}-address`} disabled={disabled} value={v.address ?? ''} onChange={(e) => set('address', e.target.value)} />
      <div className="row">
        <span>
          <label htmlFor={`${id}-lat`}>Latitude</label>
          <input id={`${id}-lat`} disabled={disabled} inputMode="decimal" value={v.latitude ?? ''} onChange={(e) => set('latitude', e.target.value)} />
        </span>
        <span>
          <label htmlFor={`${id}-lng`}>Longitude</label>
          <input id={`${id}-lng`} disabled={disabled} inputMode="decimal" value={v.longitude ?? ''} onChange={(e) => set('longitude', e.target.value)} />
        </span>
      </div>
    </fieldset>
  );
}
