import { useState } from 'react';
import { call, m } from '../api';
import type { Entry } from '../types';
import { fromLocalInput } from './values';

/** Runs one write for the editor (busy, then the saved entry and a notice, or the refusal shown). */
export type Perform = (write: () => Promise<Entry>, message: (saved: Entry) => string) => Promise<void>;

/**
 * Scheduling: publish the current version at a time, unpublish the live entry at a time, and
 * cancel a scheduled unpublish. Publishing rights only (the API checks them again).
 */
export function Schedule({ entry, busy, dirty, perform, onError }: { entry: Entry; busy: boolean; dirty: boolean; perform: Perform; onError: (message: string) => void }) {
  const [when, setWhen] = useState('');
  const [until, setUntil] = useState('');
  const post = (body: { at?: string; unpublishAt?: string | null }) => () =>
    call<Entry>('POST', m(`/entries/${encodeURIComponent(entry.id)}/schedule`), body, { 'if-match': `"${entry.versionId}"` }).then((r) => r.result);

  const publishAt = () => {
    const at = fromLocalInput(when);
    if (!at) return onError('Choose when to publish.');
    void perform(post({ at }), () => `Scheduled to publish at ${new Date(at).toLocaleString()}.`).then(() => setWhen(''));
  };
  const unpublishAt = () => {
    const at = fromLocalInput(until);
    if (!at) return onError('Choose when to unpublish.');
    void perform(post({ unpublishAt: at }), () => `Scheduled to unpublish at ${new Date(at).toLocaleString()}.`).then(() => setUntil(''));
  };
  const cancel = () => void perform(post({ unpublishAt: null }), () => 'The scheduled unpublish is cancelled.');
  const live = entry.publishedVersionId !== null || entry.status === 'SCHEDULED';

  return (
    <div className="schedule">
      <div className="row">
        <label>
          Publish at
          <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
        </label>
        <button type="button" disabled={busy || dirty || !when} onClick={publishAt}>
          Schedule publish
        </button>
        {entry.scheduledAt && <span className="muted">Scheduled: {new Date(entry.scheduledAt).toLocaleString()}</span>}
      </div>
      {live && (
        <div className="row">
          <label>
            Unpublish at
            <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
          </label>
          <button type="button" disabled={busy || !until} onClick={unpublishAt}>
            Schedule unpublish
          </button>
          {entry.unpublishAt && (
            <>
              <span className="muted">Unpublishes: {new Date(entry.unpublishAt).toLocaleString()}</span>
              <button type="button" disabled={busy} onClick={cancel}>
                Cancel scheduled unpublish
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
