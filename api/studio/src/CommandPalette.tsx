import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { call, get, m } from './api';
import { navigate } from './router';
import { sectionsFor } from './settings/sections';
import type { Entry, Me, Model } from './types';

interface Target {
  kind: 'Entry' | 'Model' | 'Settings';
  name: string;
  to: string;
}

const matches = (q: string, name: string) => name.toLowerCase().includes(q.toLowerCase());

/** What the query names: settings and models matched here, entries by the API's search. */
function useTargets(me: Me, query: string, open: boolean): Target[] {
  const q = query.trim();
  const models = useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')), enabled: open });
  const entries = useQuery({
    queryKey: ['palette-entries', q],
    queryFn: () => call<Entry[]>('GET', m(`/entries?${new URLSearchParams({ search: q, pageSize: '8' })}`)).then((e) => e.result),
    enabled: open && q.length >= 2,
    staleTime: 5_000,
  });
  const settings: Target[] = [{ kind: 'Settings', name: 'Settings', to: '/settings' }, ...sectionsFor(me).map((s) => ({ kind: 'Settings' as const, name: s.label, to: s.path }))];
  const modelTargets: Target[] = (models.data ?? []).map((x) => ({ kind: 'Model', name: x.name, to: `/models/${encodeURIComponent(x.alias)}` }));
  const entryTargets: Target[] = q.length >= 2 ? (entries.data ?? []).map((e) => ({ kind: 'Entry', name: e.title ?? e.id, to: `/entries/${encodeURIComponent(e.id)}` })) : [];
  return [...settings.filter((t) => matches(q, t.name)), ...modelTargets.filter((t) => matches(q, t.name)), ...entryTargets].slice(0, 20);
}

/** "Go to…" (Ctrl+K or ⌘K anywhere): jump to any entry, model or settings screen by name. */
export function CommandPalette({ me }: { me: Me }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const targets = useTargets(me, query, open);
  const listId = useId();

  const show = () => {
    setQuery('');
    setActive(0);
    setOpen(true);
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();
  const go = (t: Target | undefined) => {
    if (!t) return;
    close();
    navigate(t.to);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        if (dialog.current?.open) close();
        else show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, targets.length - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter') go(targets[active]);
    else return;
    e.preventDefault();
  };

  return (
    <>
      <button type="button" onClick={show} aria-keyshortcuts="Control+K Meta+K">
        Go to… <kbd>Ctrl K</kbd>
      </button>
      <dialog ref={dialog} className="palette" aria-label="Go to" onClose={() => setOpen(false)}>
        {open && (
          <>
            <input
              autoFocus
              role="combobox"
              aria-label="Go to entry, model or setting"
              aria-expanded="true"
              aria-controls={listId}
              aria-activedescendant={targets[active] ? `${listId}-${active}` : undefined}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
            />
            <ul id={listId} role="listbox" aria-label="Matches">
              {targets.map((t, i) => (
                <li key={`${t.kind}-${t.to}`} id={`${listId}-${i}`} role="option" aria-selected={i === active} onClick={() => go(t)} onMouseEnter={() => setActive(i)}>
                  <span className="muted">{t.kind}</span> {t.name}
                </li>
              ))}
              {targets.length === 0 && <li role="presentation" className="muted">Nothing by that name.</li>}
            </ul>
            <button type="button" onClick={close}>
              Close
            </button>
          </>
        )}
      </dialog>
    </>
  );
}
