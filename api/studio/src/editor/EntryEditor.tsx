import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { ApiError, call, get, m } from '../api';
import { useModels } from '../EntriesList';
import { Link } from '../Link';
import { navigate } from '../router';
import { fallbackValue, rulesOf, type Entry, type Locale, type Me } from '../types';
import { EntryTraffic } from './EntryTraffic';
import { FieldWidget } from './FieldWidget';
import { History } from './History';
import { LabelsPicker } from './LabelsPicker';
import { mayPreview, PreviewButton } from './PreviewButton';
import { ProblemsContext } from './problems';
import { Schedule, type Perform } from './Schedule';
import { problemsByPath } from './values';

type Props = { me: Me; id: string; fresh?: undefined } | { me: Me; id?: undefined; fresh: { model: string; siteId: string } };

/** A conflict: the entry has a version newer than the one this person edited. */
interface Conflict {
  message: string;
}

/** What the editor of a just-created entry says first (it is a new screen, at the entry's address). */
let flash: string | null = null;

/**
 * The entry editor: a widget per field of the model, Save (sending the version it was made on),
 * Publish / Unpublish (when the role may), and the version history.
 */
export default function EntryEditor({ me, id, fresh }: Props) {
  const qc = useQueryClient();
  const models = useModels();
  const entry = useQuery({ queryKey: ['entry', id], queryFn: () => get<Entry>(m(`/entries/${encodeURIComponent(id!)}`)), enabled: id !== undefined, staleTime: 0 });
  const locales = useQuery({ queryKey: ['locales'], queryFn: () => get<Locale[]>(m('/locales')), staleTime: 60_000 });
  const alias = fresh?.model ?? entry.data?.model;
  const model = models.data?.find((x) => x.alias === alias);
  const rules = alias ? rulesOf(me, alias) : undefined;

  // what this person changed, by alias, on top of the version they opened
  const [changes, setChanges] = useState<Record<string, unknown>>({});
  // and in the other locales, by code then alias
  const [localeChanges, setLocaleChanges] = useState<Record<string, Record<string, unknown>>>({});
  // the entry's labels as this person set them (null: as opened)
  const [labels, setLabels] = useState<string[] | null>(null);
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(() => {
    const said = flash;
    flash = null;
    return said;
  });
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [busy, setBusy] = useState(false);
  const [showHistory, setShowHistory] = useState(false);

  const byField = useMemo(() => problemsByPath(problems), [problems]);
  const dirty = Object.keys(changes).length > 0 || Object.keys(localeChanges).length > 0 || labels !== null;
  const invalidOf = useCallback((a: string) => (p: string | null) => setInvalid((cur) => {
    if ((cur[a] ?? null) === p) return cur;
    const next = { ...cur };
    if (p === null) delete next[a];
    else next[a] = p;
    return next;
  }), []);

  if (models.isPending || entry.isLoading) return <p className="loading">Loading…</p>;
  if (entry.isError) return <p role="alert">{entry.error.message}</p>;
  if (!model || !alias) return <p role="alert">The model "{alias}" is not readable.</p>;

  const current = entry.data;
  const valueOf = (a: string) => (a in changes ? changes[a] : current?.fields[a]);
  const valueIn = (code: string | null, a: string) => (code === null ? valueOf(a) : a in (localeChanges[code] ?? {}) ? localeChanges[code][a] : current?.locales?.[code]?.[a]);
  const otherLocales = (locales.data ?? []).filter((l) => !l.default);
  const sent = () => ({ ...(Object.keys(localeChanges).length > 0 ? { locales: localeChanges } : {}), ...(labels !== null ? { labels } : {}) });
  const hidden = new Set(rules?.hiddenFields ?? []);
  const readOnly = new Set(rules?.readOnlyFields ?? []);
  const shownFields = new Set(model.fields.filter((f) => !hidden.has(f.alias)).map((f) => f.alias));
  // ownEntriesOnly is the API's to decide (it knows who created the entry): a refusal is shown
  const canWrite = current ? (rules?.update ?? false) : (rules?.create ?? false);
  const canPublish = rules?.publish ?? false;

  const fail = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409 && /changed since version/.test(err.message)) {
      setConflict({ message: err.message });
    } else if (err instanceof ApiError && (err.status === 422 || err.status === 400)) {
      setProblems(err.errors.slice(1));
      setError(err.errors[0]);
    } else {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const settle = (saved: Entry, message: string) => {
    qc.setQueryData(['entry', saved.id], saved);
    void qc.invalidateQueries({ queryKey: ['entries'] });
    void qc.invalidateQueries({ queryKey: ['versions', saved.id] });
    setChanges({});
    setLocaleChanges({});
    setLabels(null);
    setProblems([]);
    setError(null);
    setConflict(null);
    setNotice(message);
  };

  const save = async (e?: FormEvent, overwrite?: Entry) => {
    e?.preventDefault();
    if (Object.keys(invalid).length > 0) return setError('Fix the fields marked invalid before saving.');
    setBusy(true);
    setNotice(null);
    try {
      if (!current) {
        const res = await call<Entry>('POST', m('/entries'), { model: alias, siteId: fresh!.siteId, fields: changes, ...sent() });
        qc.setQueryData(['entry', res.result.id], res.result);
        void qc.invalidateQueries({ queryKey: ['entries'] });
        flash = 'Saved as a draft.';
        navigate(`/entries/${encodeURIComponent(res.result.id)}`);
        return;
      }
      const base = overwrite ?? current;
      const res = await call<Entry>('PATCH', m(`/entries/${encodeURIComponent(base.id)}`), { fields: changes, ...sent() }, { 'if-match': `"${base.versionId}"` });
      settle(res.result, 'Saved.');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const perform: Perform = async (write, message) => {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await write();
      settle(saved, message(saved));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const DONE = { publish: 'Published.', unpublish: 'Unpublished: delivery no longer shows it.', archive: 'Archived: delivery no longer shows it.' };
  const transition = (name: 'publish' | 'unpublish' | 'archive') =>
    current &&
    perform(
      () => call<Entry>('POST', m(`/entries/${encodeURIComponent(current.id)}/${name}`), undefined, { 'if-match': `"${current.versionId}"` }).then((r) => r.result),
      () => DONE[name],
    );

  /** Their version replaces the form (this person's changes are dropped). */
  const takeTheirs = async () => {
    setChanges({});
    setLocaleChanges({});
    setLabels(null);
    setConflict(null);
    await qc.invalidateQueries({ queryKey: ['entry', id] });
    setNotice('Loaded the newer version; your changes were discarded.');
  };
  /** This person's changes are saved over the newer version, knowingly. */
  const keepMine = async () => {
    const newer = await get<Entry>(m(`/entries/${encodeURIComponent(id!)}`));
    qc.setQueryData(['entry', id], newer);
    await save(undefined, newer);
  };

  const live = current?.publishedVersionId ? (current.publishedVersionId === current.versionId ? 'Live: this version is published.' : 'Live: an older version is published; this one is not yet.') : 'Not live.';
  return (
    <main className="editor">
      <p className="crumbs">
        <Link to="">Content</Link> › {model.name}
      </p>
      <div className="heading">
        <h1>{current ? current.title || current.id : `New ${model.name}`}</h1>
        {current && <span className={`status status-${current.status.toLowerCase()}`}>{current.status.toLowerCase()}</span>}
      </div>
      {current && <p className="muted">{live}</p>}
      <form onSubmit={save} noValidate>
        {conflict && (
          <div role="alert" className="conflict">
            <p>
              <strong>Someone saved a newer version of this entry.</strong> Your changes were not saved, and theirs were not overwritten.
            </p>
            <p className="muted">{conflict.message}</p>
            <button type="button" onClick={takeTheirs}>
              Load their version
            </button>{' '}
            <button type="button" onClick={keepMine}>
              Save mine over it
            </button>
          </div>
        )}
        {error && (
          <div role="alert" className="error-box">
            {error}
            {byField.get('')?.map((p) => <div key={p}>{p}</div>)}
            {/* problems of a field not on this screen (hidden from this role): named here, or they would be lost */}
            {[...byField]
              .filter(([path]) => path !== '' && !shownFields.has(path.split(/[.[@]/)[0]))
              .flatMap(([path, ps]) => ps.map((p) => <div key={`${path}${p}`}>{`fields.${path}: ${p}`}</div>))}
          </div>
        )}
        <ProblemsContext value={byField}>
        {model.fields
          .filter((f) => !hidden.has(f.alias))
          .map((f) => {
            const widget = (
              <FieldWidget
                key={f.alias}
                field={f}
                value={valueOf(f.alias)}
                problems={byField.get(f.alias) ?? []}
                disabled={!canWrite || readOnly.has(f.alias) || busy}
                onInvalid={invalidOf(f.alias)}
                onChange={(v) => setChanges((c) => ({ ...c, [f.alias]: v }))}
              />
            );
            if (!f.localized || otherLocales.length === 0) return widget;
            // a localized field: its value in every locale side by side, the default first
            const writable = (code: string) => me.rules.locales === null || me.rules.locales.includes(code);
            return (
              <div key={f.alias} className="localized" role="group" aria-label={`${f.name ?? f.alias} in every locale`}>
                {widget}
                {otherLocales.map((l) => (
                  <FieldWidget
                    key={l.code}
                    field={f}
                    locale={{ code: l.code, name: l.name, fallback: fallbackValue(locales.data ?? [], l.code, f.alias, valueIn) }}
                    value={valueIn(l.code, f.alias)}
                    problems={byField.get(`${f.alias}@${l.code}`) ?? []}
                    disabled={!canWrite || readOnly.has(f.alias) || busy || !writable(l.code)}
                    onInvalid={invalidOf(`${f.alias}@${l.code}`)}
                    onChange={(v) => setLocaleChanges((c) => ({ ...c, [l.code]: { ...c[l.code], [f.alias]: v } }))}
                  />
                ))}
              </div>
            );
          })}
        </ProblemsContext>
        <LabelsPicker value={labels ?? current?.labels ?? []} onChange={setLabels} disabled={!canWrite || busy} />
        <div className="actions">
          {canWrite && (
            <button type="submit" className="primary" disabled={busy}>
              Save
            </button>
          )}
          {current && canPublish && (
            <>
              <button type="button" disabled={busy || dirty} aria-describedby={dirty ? 'publish-hint' : undefined} onClick={() => transition('publish')}>
                Publish
              </button>
              <button type="button" disabled={busy || !current.publishedVersionId} onClick={() => transition('unpublish')}>
                Unpublish
              </button>
              {current.status !== 'ARCHIVED' && (
                <button type="button" disabled={busy} onClick={() => transition('archive')}>
                  Archive
                </button>
              )}
            </>
          )}
          {current && mayPreview(me, model) && <PreviewButton entry={current} disabled={busy} />}
          {current && (
            <button type="button" aria-expanded={showHistory} onClick={() => setShowHistory((x) => !x)}>
              History
            </button>
          )}
          {dirty && (
            <span id="publish-hint" className="muted">
              Unsaved changes{canPublish ? ': save before publishing' : ''}.
            </span>
          )}
        </div>
        {current && canPublish && <Schedule entry={current} busy={busy} dirty={dirty} perform={perform} onError={setError} />}
        <p role="status" className="notice">
          {notice}
        </p>
      </form>
      {current && me.rules.settings.includes('analytics') && <EntryTraffic entryId={current.id} />}
      {showHistory && current && <History entry={current} canRestore={canWrite} onRestored={(e) => settle(e, 'Restored as the draft: publish it to make it live.')} />}
    </main>
  );
}
