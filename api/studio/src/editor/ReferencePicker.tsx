import { useQuery } from '@tanstack/react-query';
import { get, m } from '../api';
import type { Entry, Field } from '../types';
import { EntrySearch } from './EntrySearch';

/**
 * A reference field: the chosen entries, and a search among the entries of the allowed models
 * (any model when the field allows every one).
 */
export function ReferencePicker({ field, label, value, onChange, disabled, describedBy }: {
  field: Field;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled: boolean;
  describedBy?: string;
}) {
  const list = field.valueType === 'list';
  const chosen: string[] = list ? (Array.isArray(value) ? value.map(String) : []) : typeof value === 'string' && value ? [value] : [];
  const titles = useQuery({
    queryKey: ['titles', chosen],
    queryFn: () => Promise.all(chosen.map((c) => get<Entry>(m(`/entries/${encodeURIComponent(c)}`)).catch(() => null))),
    enabled: chosen.length > 0,
  });
  const choose = (e: Entry) => onChange(list ? [...chosen, e.id] : e.id);
  const remove = (c: string) => onChange(list ? chosen.filter((x) => x !== c) : null);

  return (
    <fieldset className="picker" aria-describedby={describedBy}>
      <legend>{label}</legend>
      <ul className="chosen">
        {chosen.map((c, i) => (
          <li key={c}>
            <span>{titles.data?.[i]?.title || c}</span>
            {!disabled && (
              <button type="button" className="link" onClick={() => remove(c)} aria-label={`Remove ${titles.data?.[i]?.title || c} from ${label}`}>
                Remove
              </button>
            )}
          </li>
        ))}
        {chosen.length === 0 && <li className="muted">None chosen</li>}
      </ul>
      {!disabled && (list || chosen.length === 0) && <EntrySearch label={`Find an entry for ${label}`} listLabel={`Entries to choose for ${label}`} allowed={field.allowedModels} exclude={chosen} onPick={choose} />}
    </fieldset>
  );
}
