import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, get, m } from '../../api';
import { Link } from '../../Link';
import { navigate } from '../../router';
import type { Field, Me, Model } from '../../types';
import { canChangeModels } from '../access';
import { FieldList } from '../models/FieldList';
import { blankField, draftOf, fieldInput, type FieldDraft } from '../models/model-draft';
import { Outcome, Problems } from '../Problems';

interface Component {
  alias: string;
  name: string;
  fields: Field[];
}

/** `/settings/components`: every component, each a link named by its name. */
export function ComponentsList({ me }: { me: Me }) {
  const components = useQuery({ queryKey: ['components'], queryFn: () => get<Component[]>(m('/components')) });
  return (
    <main className="content settings">
      <div className="heading">
        <h1>Components</h1>
        {canChangeModels(me) && <Link to="/settings/components/new">New component</Link>}
      </div>
      {components.isError && <Problems error={components.error} />}
      {components.data?.length === 0 && <p>No components yet.</p>}
      <ul className="settings-list">
        {components.data?.map((c) => (
          <li key={c.alias}>
            <Link to={`/settings/components/${encodeURIComponent(c.alias)}`}>{c.name}</Link>
            <span className="muted">
              {c.alias} · {c.fields.length} {c.fields.length === 1 ? 'field' : 'fields'}
            </span>
          </li>
        ))}
      </ul>
    </main>
  );
}

/** `/settings/components/new` and `/settings/components/:alias`: a component's name and fields, one PUT. */
export function ComponentEditor({ alias, me }: { alias: string | null; me: Me }) {
  const saved = useQuery({ queryKey: ['component', alias], queryFn: () => get<Component>(m(`/components/${encodeURIComponent(alias!)}`)), enabled: alias !== null });
  if (alias !== null && saved.isPending) return <p className="loading">Loading…</p>;
  if (saved.isError) return <Problems error={saved.error} />;
  return <ComponentForm saved={saved.data ?? null} me={me} />;
}

function ComponentForm({ saved, me }: { saved: Component | null; me: Me }) {
  const qc = useQueryClient();
  const writable = canChangeModels(me);
  const models = useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')) });
  const others = useQuery({ queryKey: ['components'], queryFn: () => get<Component[]>(m('/components')) });
  const [alias, setAlias] = useState(saved?.alias ?? '');
  const [name, setName] = useState(saved?.name ?? '');
  const [fields, setFields] = useState<FieldDraft[]>(() => (saved?.fields ?? []).map(draftOf));
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setDone('');
    const target = (saved?.alias ?? alias).trim();
    try {
      await call('PUT', m(`/components/${encodeURIComponent(target)}`), { name: name.trim() || undefined, fields: fields.map(fieldInput) });
      await qc.invalidateQueries({ queryKey: ['components'] });
      await qc.invalidateQueries({ queryKey: ['component', target] });
      setDone('Saved.');
      if (!saved) navigate(`/settings/components/${encodeURIComponent(target)}`);
    } catch (err) {
      setError(err);
    }
  };
  const remove = async () => {
    if (!saved || !window.confirm(`Delete the component “${saved.name}”? The API refuses while a model uses it.`)) return;
    try {
      await call('DELETE', m(`/components/${encodeURIComponent(saved.alias)}`));
      await qc.invalidateQueries({ queryKey: ['components'] });
      navigate('/settings/components');
    } catch (err) {
      setError(err);
    }
  };

  return (
    <main className="content settings">
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link to="/settings/components">Components</Link> › {saved ? saved.name : 'New component'}
      </nav>
      <h1>{saved ? `Component ${saved.name}` : 'New component'}</h1>
      <form onSubmit={save} aria-label="Component">
        <fieldset disabled={!writable}>
          <legend>Component</legend>
          <div className="row">
            <label>
              Alias
              <input value={saved?.alias ?? alias} onChange={(e) => setAlias(e.target.value)} readOnly={saved !== null} />
            </label>
            <label>
              Name
              <input value={name} onChange={(e) => setName(e.target.value)} />
            </label>
          </div>
        </fieldset>
        <h2>Fields</h2>
        <FieldList
          fields={fields}
          onChange={setFields}
          models={(models.data ?? []).map((x) => ({ alias: x.alias, name: x.name }))}
          components={(others.data ?? []).map((c) => ({ alias: c.alias, name: c.name }))}
          inComponent
          disabled={!writable}
        />
        {writable && (
          <div className="actions">
            <button type="button" onClick={() => setFields([...fields, blankField()])}>
              Add field
            </button>
            <button type="submit" className="primary">
              {saved ? 'Save component' : 'Create component'}
            </button>
            {saved && (
              <button type="button" onClick={remove}>
                Delete component
              </button>
            )}
          </div>
        )}
        <Outcome error={error} done={done} />
      </form>
    </main>
  );
}
