import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, get, m } from '../../api';
import { Link } from '../../Link';
import { navigate } from '../../router';
import type { Entry, Me, Model } from '../../types';
import { canChangeModels } from '../access';
import { Outcome, Problems } from '../Problems';
import { FieldList } from './FieldList';
import { GraphqlPreview } from './GraphqlPreview';
import { blankField, draftOf, droppedFields, fieldInput, type FieldDraft } from './model-draft';

interface BrokenEntries {
  field: string;
  rule: string;
  entries: number;
}

/** `/models/new` and `/models/:alias`: a model's name, title field and fields, saved with one PUT. */
export default function ModelEditor({ alias, me }: { alias: string | null; me: Me }) {
  const qc = useQueryClient();
  const saved = useQuery({ queryKey: ['model', alias], queryFn: () => get<Model>(m(`/models/${encodeURIComponent(alias!)}`)), enabled: alias !== null });
  if (alias !== null && saved.isPending) return <p className="loading">Loading…</p>;
  if (saved.isError) return <Problems error={saved.error} />;
  return <ModelForm key={alias ?? 'new'} saved={saved.data ?? null} me={me} onSaved={(a) => qc.invalidateQueries({ queryKey: ['model', a] })} />;
}

function ModelForm({ saved, me, onSaved }: { saved: Model | null; me: Me; onSaved: (alias: string) => void }) {
  const qc = useQueryClient();
  const writable = canChangeModels(me);
  const models = useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')) });
  const components = useQuery({ queryKey: ['components'], queryFn: () => get<Model[]>(m('/components')) });
  // how many entries a dropped field would take values from
  const entries = useQuery({
    queryKey: ['entries', 'count', saved?.alias],
    queryFn: () => call<Entry[]>('GET', m(`/entries?model=${encodeURIComponent(saved!.alias)}&pageSize=1`)),
    enabled: saved !== null,
  });
  const [alias, setAlias] = useState(saved?.alias ?? '');
  const [name, setName] = useState(saved?.name ?? '');
  const [titleField, setTitleField] = useState(saved?.titleField ?? '');
  const [fields, setFields] = useState<FieldDraft[]>(() => (saved?.fields ?? []).map(draftOf));
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [broken, setBroken] = useState<BrokenEntries[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const entryCount = entries.data?.resultInfo?.totalCount ?? 0;
  const textFields = fields.filter((f) => f.type === 'text' && !f.list && f.alias.trim());

  const put = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const target = (saved?.alias ?? alias).trim();
      const body = { name: name.trim() || undefined, titleField: titleField || null, fields: fields.map(fieldInput) };
      const res = await call<Model & { brokenEntries?: BrokenEntries[] }>('PUT', m(`/models/${encodeURIComponent(target)}`), body);
      setBroken(res.result.brokenEntries ?? []);
      setDone(saved ? 'Saved.' : 'Created.');
      await qc.invalidateQueries({ queryKey: ['models'] });
      await qc.invalidateQueries({ queryKey: ['model-sdl', target] });
      if (!saved) navigate(`/models/${encodeURIComponent(target)}`);
      else {
        setFields(res.result.fields.map(draftOf));
        onSaved(target);
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const dropped = saved && entryCount > 0 ? droppedFields(saved.fields, fields) : [];
    // a removed or renamed field takes its values out of every entry: say so before sending
    if (dropped.length > 0) setConfirming(dropped);
    else void put();
  };

  const remove = async () => {
    if (!saved || !window.confirm(`Delete the model “${saved.name}”? The API refuses while entries of it exist.`)) return;
    try {
      await call('DELETE', m(`/models/${encodeURIComponent(saved.alias)}`));
      await qc.invalidateQueries({ queryKey: ['models'] });
      navigate('/models');
    } catch (err) {
      setError(err);
    }
  };

  const others = (models.data ?? []).map((x) => ({ alias: x.alias, name: x.name }));
  if (saved && !others.some((o) => o.alias === saved.alias)) others.push({ alias: saved.alias, name: saved.name });
  return (
    <main className="content settings model-editor">
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link to="/models">Models</Link> › {saved ? saved.name : 'New model'}
      </nav>
      <h1>{saved ? `Model ${saved.name}` : 'New model'}</h1>
      <form onSubmit={save} aria-label="Model">
        <fieldset disabled={!writable}>
          <legend>Model</legend>
          <div className="row">
            <label>
              Alias
              <input value={saved?.alias ?? alias} onChange={(e) => setAlias(e.target.value)} readOnly={saved !== null} aria-describedby="alias-hint" />
            </label>
            <label>
              Name
              <input value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <label>
              Title field
              <select value={titleField} onChange={(e) => setTitleField(e.target.value)}>
                <option value="">None</option>
                {textFields.map((f) => (
                  <option key={f.key} value={f.alias.trim()}>
                    {f.alias}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p id="alias-hint" className="hint">
            {saved
              ? `The alias names the model in URLs, webhooks and GraphQL; it is fixed once created (${entryCount} entries).`
              : 'The alias names the model in URLs, webhooks and GraphQL, and cannot change later.'}
          </p>
        </fieldset>
        <h2>Fields</h2>
        <FieldList
          fields={fields}
          onChange={setFields}
          models={others}
          components={(components.data ?? []).map((c) => ({ alias: c.alias, name: c.name }))}
          disabled={!writable}
        />
        {writable && (
          <div className="actions">
            <button type="button" onClick={() => setFields([...fields, blankField()])}>
              Add field
            </button>
            <button type="submit" className="primary" disabled={busy}>
              {saved ? 'Save model' : 'Create model'}
            </button>
            {saved && (
              <button type="button" onClick={remove}>
                Delete model
              </button>
            )}
          </div>
        )}
        {confirming && (
          <div role="alertdialog" aria-labelledby="drop-title" aria-describedby="drop-text" className="conflict">
            <h2 id="drop-title">This change deletes data</h2>
            <p id="drop-text">
              {entryCount} {entryCount === 1 ? 'entry holds' : 'entries hold'} values of {confirming.map((a) => `“${a}”`).join(', ')}. Saving removes{' '}
              {confirming.length === 1 ? 'this field' : 'these fields'} and those values with {confirming.length === 1 ? 'it' : 'them'}.
            </p>
            <button type="button" className="primary" onClick={() => void put()}>
              Delete the values and save
            </button>{' '}
            <button type="button" onClick={() => setConfirming(null)}>
              Keep editing
            </button>
          </div>
        )}
        <Outcome error={error} done={done} />
        {broken.length > 0 && (
          <div className="conflict">
            <p>Entries that break a new rule (they stay, and must keep it on their next save):</p>
            <ul>
              {broken.map((b) => (
                <li key={`${b.field}-${b.rule}`}>
                  {b.field}, {b.rule}: {b.entries}
                </li>
              ))}
            </ul>
          </div>
        )}
      </form>
      {saved && <GraphqlPreview alias={saved.alias} />}
    </main>
  );
}
