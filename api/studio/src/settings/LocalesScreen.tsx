import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, get, m } from '../api';
import type { Locale, Me } from '../types';
import { canChangeModels } from './access';
import { Outcome, Problems } from './Problems';

/** One locale's row: its name and fallback saved with one PATCH, and "make default" when it is not. */
function LocaleRow({ locale, all, writable, onDone }: { locale: Locale; all: Locale[]; writable: boolean; onDone: (err: unknown) => void }) {
  const [name, setName] = useState(locale.name);
  const [fallback, setFallback] = useState(locale.fallback ?? '');
  const patch = async (body: Record<string, unknown>) => {
    try {
      await call('PATCH', m(`/locales/${encodeURIComponent(locale.code)}`), body);
      onDone(null);
    } catch (err) {
      onDone(err);
    }
  };
  return (
    <tr>
      <th scope="row">
        {locale.code}
        {locale.default && <span className="status status-published"> default</span>}
      </th>
      <td>
        <input aria-label={`Name of ${locale.code}`} value={name} onChange={(e) => setName(e.target.value)} disabled={!writable} />
      </td>
      <td>
        <select aria-label={`Fallback of ${locale.code}`} value={fallback} onChange={(e) => setFallback(e.target.value)} disabled={!writable}>
          <option value="">None (the default locale)</option>
          {all
            .filter((l) => l.code !== locale.code)
            .map((l) => (
              <option key={l.code} value={l.code}>
                {l.code}
              </option>
            ))}
        </select>
      </td>
      {writable && (
        <td className="actions">
          <button type="button" onClick={() => void patch({ name, fallback: fallback || null })}>
            Save {locale.code}
          </button>
          {!locale.default && (
            <button type="button" onClick={() => void patch({ default: true })}>
              Make {locale.code} the default
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

/** `/settings/locales`: add, rename, fallbacks, the default; every refusal as the API words it. */
export function LocalesScreen({ me }: { me: Me }) {
  const qc = useQueryClient();
  const writable = canChangeModels(me);
  const locales = useQuery({ queryKey: ['locales'], queryFn: () => get<Locale[]>(m('/locales')) });
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  const settle = async (err: unknown, what: string) => {
    setError(err);
    setDone(err ? '' : what);
    if (!err) await qc.invalidateQueries({ queryKey: ['locales'] });
  };
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await call('POST', m('/locales'), { code: code.trim(), name: name.trim() || undefined });
      setCode('');
      setName('');
      await settle(null, 'Locale added.');
    } catch (err) {
      await settle(err, '');
    }
  };

  const all = locales.data ?? [];
  return (
    <main className="content settings">
      <h1>Locales</h1>
      {locales.isError && <Problems error={locales.error} />}
      <div className="table-wrap">
        <table className="entries">
          <caption className="visually-hidden">Locales</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Fallback</th>
              {writable && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {all.map((l) => (
              <LocaleRow key={`${l.code}-${l.name}-${l.fallback}-${l.default}`} locale={l} all={all} writable={writable} onDone={(err) => void settle(err, `Locale ${l.code} saved.`)} />
            ))}
          </tbody>
        </table>
      </div>
      {writable && (
        <form onSubmit={add} aria-label="Add a locale" className="row">
          <label>
            Locale code
            <input value={code} onChange={(e) => setCode(e.target.value)} placeholder="fr-FR" />
          </label>
          <label>
            Locale name
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit">Add locale</button>
        </form>
      )}
      <Outcome error={error} done={done} />
    </main>
  );
}
