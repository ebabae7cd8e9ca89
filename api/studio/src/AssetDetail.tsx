import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, call, m } from './api';
import { AssetFocus, type Focus } from './AssetFocus';
import { AssetUses } from './AssetUses';
import { uploadAsset } from './upload';

export interface Asset {
  id: string;
  versionId?: string;
  title: string | null;
  fileName: string | null;
  type: string;
  contentType?: string;
  size?: number;
  alt: string | null;
  caption?: string | null;
  tags?: string[];
  focalPoint?: { x: number; y: number } | null;
  focalPoints?: Focus['focalPoints'];
  url?: string;
  updatedAt?: string;
}

const errorText = (err: unknown) => (err instanceof ApiError ? err.errors.join(' ') : String(err));

/**
 * An asset's metadata and focal points, where it is used, and a new file for it (a new version:
 * its id, and so every entry using it, kept).
 */
export function AssetDetail({ asset, thumbnail, onClose }: { asset: Asset; thumbnail: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [focus, setFocus] = useState<Focus>({ focalPoint: asset.focalPoint ?? { x: 0.5, y: 0.5 }, focalPoints: asset.focalPoints ?? [] });
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || null;
    try {
      await call('PATCH', m(`/assets/${encodeURIComponent(asset.id)}`), {
        title: text('title'),
        alt: text('alt'),
        caption: text('caption'),
        tags: String(form.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean),
        ...(asset.type === 'IMAGE' ? focus : {}),
      });
      setError(null);
      setNotice('Saved.');
      await qc.invalidateQueries({ queryKey: ['assets'] });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const replace = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      await uploadAsset(file, (p) => setNotice(`Replacing the file: ${Math.round(p * 100)}%`), { replace: asset.id });
      setNotice(`Replaced by ${file.name}.`);
      await qc.invalidateQueries({ queryKey: ['assets'] });
    } catch (err) {
      setNotice(null);
      setError(errorText(err));
    }
  };
  return (
    <section className="asset-detail" aria-labelledby="asset-title">
      <h2 id="asset-title">{asset.title || asset.fileName || asset.id}</h2>
      <form onSubmit={save}>
        {asset.type === 'IMAGE' && thumbnail && asset.url && <AssetFocus key={asset.versionId} url={asset.url} alt={asset.alt ?? ''} value={focus} onChange={setFocus} />}
        <label>
          Title
          <input name="title" defaultValue={asset.title ?? ''} />
        </label>
        <label>
          Alt text
          <input name="alt" defaultValue={asset.alt ?? ''} />
        </label>
        <label>
          Caption
          <input name="caption" defaultValue={asset.caption ?? ''} />
        </label>
        <label>
          Tags
          <input name="tags" defaultValue={(asset.tags ?? []).join(', ')} aria-describedby="tags-hint" />
        </label>
        <span id="tags-hint" className="hint">
          Separate tags with commas.
        </span>
        <div className="actions">
          <button type="submit" className="primary">
            Save asset
          </button>
          <label className="button">
            Replace file
            <input type="file" className="visually-hidden" onChange={(e) => (void replace(e.target.files?.[0]), (e.target.value = ''))} />
          </label>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        {error && <p role="alert">{error}</p>}
        <p role="status" className="notice">
          {notice}
        </p>
      </form>
      <AssetUses id={asset.id} />
    </section>
  );
}
