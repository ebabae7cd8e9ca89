import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get, m } from '../api';

interface Label {
  id: string;
  name: string;
  color?: string | null;
}

/**
 * The entry's labels: one checkbox per label of the organization (its newest hundred), narrowed by
 * a filter box once there are many. Labels are the entry's own, not a field of its model.
 */
export function LabelsPicker({ value, onChange, disabled }: { value: string[]; onChange: (v: string[]) => void; disabled: boolean }) {
  const labels = useQuery({ queryKey: ['labels'], queryFn: () => get<Label[]>(m('/labels?pageSize=100')), staleTime: 30_000 });
  const [filter, setFilter] = useState('');
  const all = labels.data ?? [];
  if (labels.isError || (all.length === 0 && value.length === 0)) return null;
  const shown = all.filter((l) => value.includes(l.id) || l.name.toLowerCase().includes(filter.trim().toLowerCase()));
  // a label beyond the first hundred stays on the entry, shown by its id
  const unknown = value.filter((v) => !all.some((l) => l.id === v));
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((x) => x !== id));
  return (
    <fieldset className="labels">
      <legend>Labels</legend>
      {all.length > 8 && (
        <label>
          Filter labels
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
      )}
      <div className="label-choices">
        {[...shown.map((l) => ({ id: l.id, name: l.name })), ...unknown.map((id) => ({ id, name: id }))].map((l) => (
          <label key={l.id} className="check">
            <input type="checkbox" aria-label={`Label ${l.name}`} disabled={disabled} checked={value.includes(l.id)} onChange={(e) => toggle(l.id, e.target.checked)} />
            {l.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
