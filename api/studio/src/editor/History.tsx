import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, get, m } from '../api';
import type { Entry, EntryVersion, Locale, VersionChange } from '../types';

const shown = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** The entry's kept versions, newest first, each restorable as the new draft. */
export function History({ entry, canRestore, onRestored }: { entry: Entry; canRestore: boolean; onRestored: (e: Entry) => void }) {
  const versions = useQuery({ queryKey: ['versions', entry.id], queryFn: () => get<EntryVersion[]>(m(`/entries/${encodeURIComponent(entry.id)}/versions`)) });
  const [error, setError] = useState<string | null>(null);
  const [comparing, setComparing] = useState<{ number: number; versionId: string } | null>(null);
  const restore = async (v: EntryVersion) => {
    try {
      const res = await call<Entry>('POST', m(`/entries/${encodeURIComponent(entry.id)}/versions/${encodeURIComponent(v.versionId)}/restore`));
      setError(null);
      onRestored(res.result);
    } catch (err) {
      setError(err instanceof ApiError ? err.errors.join(' ') : String(err));
    }
  };
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title">Versions</h2>
      {versions.isError && <p role="alert">{versions.error.message}</p>}
      {error && <p role="alert">{error}</p>}
      <ol reversed>
        {(versions.data ?? []).map((v, i, all) => (
          <li key={v.versionId}>
            <span>
              <strong>Version {all.length - i}</strong> ·{' '}
              <time dateTime={v.savedAt}>{new Date(v.savedAt).toLocaleString()}</time> · {v.status.toLowerCase()} · {v.title ?? '(untitled)'}
              {v.savedBy?.name ? ` · ${v.savedBy.name}` : ''}
              {v.current ? ' · current' : ''}
            </span>
            {!v.current && (
              <button type="button" aria-pressed={comparing?.versionId === v.versionId} onClick={() => setComparing(comparing?.versionId === v.versionId ? null : { number: all.length - i, versionId: v.versionId })}>
                Compare version {all.length - i}
              </button>
            )}
            {canRestore && !v.current && (
              <button type="button" onClick={() => restore(v)} aria-label={`Restore version ${all.length - i}`}>
                Restore
              </button>
            )}
          </li>
        ))}
      </ol>
      {comparing && <Diff entry={entry} number={comparing.number} versionId={comparing.versionId} />}
    </section>
  );
}

/**
 * Where an older version differs from the current one, as the API compares them: a row per field
 * (a localized field's other locales each on their own row, named like the editor's widgets) or
 * property, the older value beside the current one.
 */
function Diff({ entry, number, versionId }: { entry: Entry; number: number; versionId: string }) {
  const id = encodeURIComponent(entry.id);
  const diff = useQuery({
    queryKey: ['version-diff', entry.id, versionId, entry.versionId],
    queryFn: () => get<{ changes: VersionChange[] }>(m(`/entries/${id}/versions/${encodeURIComponent(versionId)}/diff/${encodeURIComponent(entry.versionId)}`)),
  });
  const locales = useQuery({ queryKey: ['locales'], queryFn: () => get<Locale[]>(m('/locales')), staleTime: 60_000 });
  if (diff.isError) return <p role="alert">{diff.error.message}</p>;
  if (!diff.data) return <p className="loading">Loading version {number}…</p>;
  const changes = diff.data.changes;
  const where = (c: VersionChange) => {
    const locale = c.locale && !c.path.startsWith('fields.') ? (locales.data?.find((l) => l.code === c.locale)?.name ?? c.locale) : null;
    return locale ? `${c.field} (${locale})` : (c.field ?? c.path);
  };
  return (
    <div className="table-wrap">
      <table className="diff">
        <caption>
          Version {number} compared with the current version: {changes.length === 0 ? 'nothing differs' : `${changes.length} difference${changes.length === 1 ? '' : 's'}`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Version {number}</th>
            <th scope="col">Current</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.path}>
              <th scope="row">{where(c)}</th>
              <td>{c.change === 'added' ? <span className="muted">not set</span> : <del>{shown(c.before)}</del>}</td>
              <td>{c.change === 'removed' ? <span className="muted">not set</span> : <ins>{shown(c.after)}</ins>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
