import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get, m } from './api';
import { navigate } from './router';
import type { Model, Site } from './types';

/** Which model the new entry is of (one button per model), and on which site when there are several. */
export function NewEntry({ models, onCancel }: { models: Model[]; onCancel: () => void }) {
  const sites = useQuery({ queryKey: ['sites'], queryFn: () => get<Site[]>(m('/sites')) });
  const [site, setSite] = useState('');
  const [error, setError] = useState<string | null>(null);
  const siteId = site || sites.data?.[0]?.id;

  // nothing is stored until the first Save: the editor opens a blank entry of the model
  const create = (model: Model) => {
    if (!siteId) return setError('The organization has no site yet: create one with POST /management/v1/sites.');
    navigate(`/new?model=${encodeURIComponent(model.alias)}&site=${encodeURIComponent(siteId)}`);
  };

  return (
    <section className="new-entry" role="group" aria-labelledby="new-entry-title">
      <h2 id="new-entry-title">Which model?</h2>
      {(sites.data?.length ?? 0) > 1 && (
        <label>
          Site
          <select value={siteId} onChange={(e) => setSite(e.target.value)}>
            {sites.data!.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="model-buttons">
        {models.map((x) => (
          // until the sites are read, the entry's site is not known: a click then was refused as "no site yet"
          <button key={x.alias} type="button" disabled={sites.isPending} onClick={() => create(x)}>
            {x.name}
          </button>
        ))}
      </div>
      <button type="button" className="link" onClick={onCancel}>
        Cancel
      </button>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
