import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, m } from '../../api';
import type { Me, Site } from '../../types';
import { canChangeSites } from '../access';
import { Outcome, Problems } from '../Problems';

/** `/settings/sites`: the organization's sites and a new one (the API has no rename or delete for sites). */
export function SitesScreen({ me }: { me: Me }) {
  const qc = useQueryClient();
  const sites = useQuery({ queryKey: ['sites', 'all'], queryFn: () => call<Site[]>('GET', m('/sites?pageSize=100')) });
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setDone('');
    try {
      await call('POST', m('/sites'), { name });
      setName('');
      setError(null);
      setDone('Site added.');
      await qc.invalidateQueries({ queryKey: ['sites'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <main className="content settings">
      <h1>Sites</h1>
      {sites.isError && <Problems error={sites.error} />}
      <ul className="settings-list">
        {sites.data?.result.map((s) => (
          <li key={s.id}>
            <strong>{s.name}</strong> <span className="muted">{s.id}</span>
          </li>
        ))}
      </ul>
      {canChangeSites(me) && (
        <form onSubmit={add} aria-label="Add a site" className="row">
          <label>
            Site name
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit">Add site</button>
        </form>
      )}
      <Outcome error={error} done={done} />
    </main>
  );
}
