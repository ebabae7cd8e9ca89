import { useQuery } from '@tanstack/react-query';
import { get, m } from '../api';
import type { Field } from '../types';
import { nameOf, NOUNS, thumbnailOf, useResources, type Resource, type ResourceKind } from './resources';
import { ResourceSearch } from './ResourceSearch';
import { UploadInput } from './UploadInput';

/**
 * A media, author or section field: the chosen ones (each removable), a search among the
 * organization's, and for media an upload whose new asset is chosen at once.
 */
export function ResourcePicker({ field, label, value, onChange, disabled, describedBy }: {
  field: Field;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled: boolean;
  describedBy?: string;
}) {
  const kind = field.type as ResourceKind;
  const list = field.valueType === 'list';
  const chosen = list ? (Array.isArray(value) ? value.map(String) : []) : typeof value === 'string' && value ? [value] : [];
  // authors and sections are named from the newest hundred (shared with their search); media,
  // searched by the API, and any chosen one beyond those hundred (or just uploaded) are read by id
  const byId = kind === 'media';
  const known = useResources(kind, chosen.length > 0 && !byId);
  const missing = chosen.filter((c) => (byId || known.data) && !known.data?.some((r) => r.id === c));
  const extra = useQuery({
    queryKey: ['resource', kind, missing],
    queryFn: () => Promise.all(missing.map((c) => get<Resource>(m(`/${kind === 'media' ? 'assets' : `${kind}s`}/${encodeURIComponent(c)}`)).catch(() => null))),
    enabled: missing.length > 0,
  });
  const find = (c: string) => known.data?.find((x) => x.id === c) ?? extra.data?.find((x) => x?.id === c);
  const title = (c: string) => {
    const r = find(c);
    return r ? nameOf(r) : c;
  };
  const choose = (id: string) => onChange(list ? [...chosen, id] : id);
  const remove = (c: string) => onChange(list ? (chosen.length > 1 ? chosen.filter((x) => x !== c) : null) : null);
  const open = !disabled && (list || chosen.length === 0);
  return (
    <fieldset className="picker" aria-describedby={describedBy}>
      <legend>
        {label}
        {field.required && <span className="required"> (required)</span>}
      </legend>
      <ul className="chosen">
        {chosen.map((c) => {
          const thumb = thumbnailOf(find(c));
          return (
            <li key={c}>
              {thumb && <img className="thumb" src={thumb} alt="" />}
              <span>{title(c)}</span>
              {!disabled && (
                <button type="button" className="link" onClick={() => remove(c)} aria-label={`Remove ${title(c)} from ${label}`}>
                  Remove
                </button>
              )}
            </li>
          );
        })}
        {chosen.length === 0 && <li className="muted">None chosen</li>}
      </ul>
      {open && <ResourceSearch kind={kind} label={`Find ${NOUNS[kind]} for ${label}`} listLabel={`Choices for ${label}`} exclude={chosen} onPick={(r) => choose(r.id)} />}
      {open && kind === 'media' && <UploadInput label={`Upload a file for ${label}`} onUploaded={(id) => choose(id)} />}
    </fieldset>
  );
}
