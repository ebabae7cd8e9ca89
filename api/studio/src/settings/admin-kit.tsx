import { useState, type ReactNode } from 'react';
import { ApiError } from '../api';

// What every people, integration and organization screen shares: an action's outcome (the API's
// own reasons when it refuses), a secret shown once, dates and table frames.

export interface Action {
  run: (f: () => Promise<string | void>) => Promise<void>;
  busy: boolean;
  error: unknown;
  done: string | null;
}

/** One form's or button's call: busy while it runs, then the API's refusal or a short success line. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = async (f: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone((await f()) ?? null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, done };
}

/** The reasons of a refusal, each on its line, as the API wrote them. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const reasons = error instanceof ApiError ? error.errors : [error instanceof Error ? error.message : String(error)];
  return (
    <div role="alert" className="error-box">
      {reasons.map((r, i) => (
        <p key={i}>{r}</p>
      ))}
    </div>
  );
}

/** An action's outcome: the refusal (role alert) or the success line (role status). */
export function Outcome({ action }: { action: Action }) {
  return (
    <>
      <Problem error={action.error} />
      <p role="status" className="notice">
        {action.done ?? ''}
      </p>
    </>
  );
}

/** A secret the API shows once (a token, a webhook's signing secret, an invitation link). */
export function ShownOnce({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="shown-once">
      <label>
        {label}
        <input readOnly value={value} onFocus={(e) => e.target.select()} />
      </label>
      <p className="hint">It is shown only now: store it before leaving this page.{children}</p>
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
      </button>
    </div>
  );
}

/** A date-time as the reader's locale writes it, or a dash. */
export const when = (at: string | null | undefined): string => (at ? new Date(at).toLocaleString() : '—');

/** `<input type="datetime-local">`'s value as RFC 3339 (with the reader's offset), or undefined when empty. */
export const isoOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

/** A comma- or line-separated list, trimmed, without empty items. */
export const listOf = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A table that scrolls sideways inside its own frame on a narrow screen, never the page. */
export function Table({ caption, grid = false, children }: { caption: string; grid?: boolean; children: ReactNode }) {
  return (
    <div className="table-wrap admin-table" role="region" aria-label={caption} tabIndex={0}>
      <table className={grid ? 'admin grid' : 'admin'}>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
