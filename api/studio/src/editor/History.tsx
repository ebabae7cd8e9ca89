import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, get, m } from '../api';
import type { Entry, EntryVersion } from '../types';

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

/** The fields in which an older version differs from the current one, side by side. */
function Diff({ entry, number, versionId }: { entry: Entry; number: number; versionId: string }) {
  const old = useQuery({
    queryKey: ['version', entry.id, versionId],
    queryFn: () => get<{ fields: Record<string, unknown> }>(m(`/entries/${encodeURIComponent(entry.id)}/versions/${encodeURIComponent(versionId)}`)),
  });
  if (old.isError) return <p role="alert">{old.error.message}</p>;
  if (!old.data) return <p className="loading">Loading version {number}…</p>;
  const aliases = [...new Set([...Object.keys(old.data.fields), ...Object.keys(entry.fields)])];
  const changed = aliases.filter((a) => JSON.stringify(old.data.fields[a] ?? null) !== JSON.stringify(entry.fields[a] ?? null));
  return (
    <div className="table-wrap">
      <table className="diff">
        <caption>
          Version {number} compared with the current version: {changed.length === 0 ? 'no field differs' : `${changed.length} field${changed.length === 1 ? '' : 's'} differ`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Version {number}</th>
            <th scope="col">Current</th>
          </tr>
        </thead>
        <tbody>
          {changed.map((a) => (
            <tr key={a}>
              <th scope="row">{a}</th>
              <td>
                <del>{shown(old.data.fields[a])}</del>
              </td>
              <td>
                <ins>{shown(entry.fields[a])}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
