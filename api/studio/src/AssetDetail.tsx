import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type MouseEvent } from 'react';
import { ApiError, call, m } from './api';

export interface Asset {
  id: string;
  title: string | null;
  fileName: string | null;
  type: string;
  alt: string | null;
  caption?: string | null;
  tags?: string[];
  focalPoint?: { x: number; y: number } | null;
  url?: string;
}

const RATIOS = ['16 / 9', '1 / 1', '3 / 4'];
const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * An asset's metadata and focal point: a click on the image sets it (or type it as percentages),
 * and crops at a few ratios show at once what the focal point keeps.
 */
export function AssetDetail({ asset, thumbnail, onClose }: { asset: Asset; thumbnail: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [focal, setFocal] = useState(asset.focalPoint ?? { x: 0.5, y: 0.5 });
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pick = (e: MouseEvent<HTMLImageElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setFocal({ x: round((e.clientX - box.left) / box.width), y: round((e.clientY - box.top) / box.height) });
  };
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
        ...(asset.type === 'IMAGE' ? { focalPoint: focal } : {}),
      });
      setError(null);
      setNotice('Saved.');
      await qc.invalidateQueries({ queryKey: ['assets'] });
    } catch (err) {
      setError(err instanceof ApiError ? err.errors.join(' ') : String(err));
    }
  };
  const position = `${focal.x * 100}% ${focal.y * 100}%`;
  return (
    <section className="asset-detail" aria-labelledby="asset-title">
      <h2 id="asset-title">{asset.title || asset.fileName || asset.id}</h2>
      <form onSubmit={save}>
        {asset.type === 'IMAGE' && thumbnail && (
          <div className="focal">
            <p className="hint" id="focal-hint">
              Click the image where its subject is: crops keep that point in view.
            </p>
            <div className="focal-image">
              <img src={asset.url} alt={asset.alt ?? ''} onClick={pick} aria-describedby="focal-hint" />
              {/* React sets styles through the CSSOM, which the CSP allows (a style attribute it would not) */}
              <span className="focal-mark" aria-hidden="true" style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }} />
            </div>
            <div className="row">
              <label>
                Focal point x (%)
                <input type="number" min={0} max={100} value={Math.round(focal.x * 100)} onChange={(e) => setFocal({ ...focal, x: Math.min(1, Math.max(0, Number(e.target.value) / 100)) })} />
              </label>
              <label>
                Focal point y (%)
                <input type="number" min={0} max={100} value={Math.round(focal.y * 100)} onChange={(e) => setFocal({ ...focal, y: Math.min(1, Math.max(0, Number(e.target.value) / 100)) })} />
              </label>
            </div>
            <div className="crops" aria-label="Crop previews" role="group">
              {RATIOS.map((r) => (
                <img key={r} src={asset.url} alt={`Crop at ${r.replace(/ /g, '')}`} style={{ aspectRatio: r, objectPosition: position }} className="crop" />
              ))}
            </div>
          </div>
        )}
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
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        {error && <p role="alert">{error}</p>}
        <p role="status" className="notice">
          {notice}
        </p>
      </form>
    </section>
  );
}
