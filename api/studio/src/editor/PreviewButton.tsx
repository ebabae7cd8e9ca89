import { useState } from 'react';
import { call, m } from '../api';
import type { Entry, Me, Model } from '../types';

/**
 * Whether the API would give this member a preview link: one reads drafts of every field of every
 * model, so a role that hides a field or a model anywhere is refused (the API decides; this only
 * spares the person a button that cannot work).
 */
export function mayPreview(me: Me, model: Model): boolean {
  if (!model.previewUrl) return false;
  const rules = Object.values(me.rules.models);
  const of = me.rules.models[model.alias] ?? me.rules.models['*'];
  return (of?.read ?? false) && (me.rules.models['*']?.read ?? false) && rules.every((r) => r.read && r.hiddenFields.length === 0);
}

/**
 * Preview: asks the API for a preview link (a short-lived preview token in the model's preview
 * URL) and opens it in a new tab. The tab is opened on the click, before the link arrives, so a
 * popup blocker lets it through.
 */
export function PreviewButton({ entry, disabled }: { entry: Entry; disabled: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    const tab = window.open('about:blank', '_blank');
    try {
      const res = await call<{ url: string }>('POST', m(`/entries/${encodeURIComponent(entry.id)}/preview-link`), {});
      if (tab) {
        tab.opener = null;
        tab.location.href = res.result.url;
      } else {
        window.location.assign(res.result.url);
      }
    } catch (err) {
      tab?.close();
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => void open()}>
        Preview
      </button>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </>
  );
}
