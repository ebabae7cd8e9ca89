import { useQuery } from '@tanstack/react-query';
import { get, m } from '../api';
import type { Field } from '../types';

const SOURCES = { media: '/assets?pageSize=100', author: '/authors?pageSize=100', section: '/sections?pageSize=100' } as const;

interface Resource {
  id: string;
  title?: string | null;
  name?: string | null;
  fileName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** A media, author or section field: chosen from the organization's (first hundred) of them. */
export function ResourcePicker({ field, id, label, value, onChange, disabled, describedBy }: {
  field: Field;
  id: string;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled: boolean;
  describedBy?: string;
}) {
  const source = SOURCES[field.type as keyof typeof SOURCES];
  const items = useQuery({ queryKey: ['resources', source], queryFn: () => get<Resource[]>(m(source)) });
  const nameOf = (r: Resource) => r.title || r.name || [r.firstName, r.lastName].filter(Boolean).join(' ') || r.fileName || r.id;
  const list = field.valueType === 'list';
  const chosen = list ? (Array.isArray(value) ? value.map(String) : []) : typeof value === 'string' ? [value] : [];
  return (
    <>
      <label htmlFor={id}>
        {label}
        {field.required && <span className="required"> (required)</span>}
      </label>
      <select
        id={id}
        multiple={list}
        disabled={disabled}
        aria-describedby={describedBy}
        value={list ? chosen : (chosen[0] ?? '')}
        onChange={(e) => onChange(list ? [...e.target.selectedOptions].map((o) => o.value) : e.target.value || null)}
      >
        {!list && <option value="">(none)</option>}
        {(items.data ?? []).map((r) => (
          <option key={r.id} value={r.id}>
            {nameOf(r)}
          </option>
        ))}
        {/* a chosen one beyond the first hundred stays chosen */}
        {chosen
          .filter((c) => !(items.data ?? []).some((r) => r.id === c))
          .map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
      </select>
    </>
  );
}
