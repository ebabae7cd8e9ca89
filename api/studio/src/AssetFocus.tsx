import { useState, type MouseEvent } from 'react';

export interface Point {
  x: number;
  y: number;
}
/** The focal points an image keeps: one for every crop, and optionally one per aspect ratio. */
export interface Focus {
  focalPoint: Point;
  focalPoints: { ratio: string; focalPoint: Point }[];
}

const RATIOS = ['16:9', '1:1', '3:4'];
const round = (n: number) => Math.round(n * 1000) / 1000;
const clamp = (n: number) => Math.min(1, Math.max(0, n));

/**
 * The focal point set by a click on the image (or typed as percentages): for every crop, or for
 * the crops of one ratio only, where the main point would cut the subject off. Each ratio's crop
 * is previewed with the point it will use.
 */
export function AssetFocus({ url, alt, value, onChange }: { url: string; alt: string; value: Focus; onChange: (next: Focus) => void }) {
  const [target, setTarget] = useState('');
  const own = (ratio: string) => value.focalPoints.find((f) => f.ratio === ratio)?.focalPoint;
  const current = (target && own(target)) || value.focalPoint;
  const set = (p: Point) =>
    onChange(target ? { ...value, focalPoints: [...value.focalPoints.filter((f) => f.ratio !== target), { ratio: target, focalPoint: p }] } : { ...value, focalPoint: p });
  const pick = (e: MouseEvent<HTMLImageElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    set({ x: round((e.clientX - box.left) / box.width), y: round((e.clientY - box.top) / box.height) });
  };
  const ratios = [...new Set([...RATIOS, ...value.focalPoints.map((f) => f.ratio)])];
  return (
    <div className="focal">
      <p className="hint" id="focal-hint">
        Click the image where its subject is: crops keep that point in view.
      </p>
      <label>
        Focal point for
        <select value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Every crop</option>
          {ratios.map((r) => (
            <option key={r} value={r}>
              {r} crops{own(r) ? ' (own point)' : ''}
            </option>
          ))}
        </select>
      </label>
      <div className="focal-image">
        <img src={url} alt={alt} onClick={pick} aria-describedby="focal-hint" />
        {/* React sets styles through the CSSOM, which the CSP allows (a style attribute it would not) */}
        <span className="focal-mark" aria-hidden="true" style={{ left: `${current.x * 100}%`, top: `${current.y * 100}%` }} />
      </div>
      <div className="row">
        <label>
          Focal point x (%)
          <input type="number" min={0} max={100} value={Math.round(current.x * 100)} onChange={(e) => set({ ...current, x: clamp(Number(e.target.value) / 100) })} />
        </label>
        <label>
          Focal point y (%)
          <input type="number" min={0} max={100} value={Math.round(current.y * 100)} onChange={(e) => set({ ...current, y: clamp(Number(e.target.value) / 100) })} />
        </label>
        {target && own(target) && (
          <button type="button" onClick={() => onChange({ ...value, focalPoints: value.focalPoints.filter((f) => f.ratio !== target) })}>
            Use the main point for {target}
          </button>
        )}
      </div>
      <div className="crops" aria-label="Crop previews" role="group">
        {ratios.map((r) => {
          const p = own(r) ?? value.focalPoint;
          return (
            <img
              key={r}
              src={url}
              alt={`Crop at ${r}${own(r) ? ', its own focal point' : ''}`}
              style={{ aspectRatio: r.replace(':', ' / '), objectPosition: `${p.x * 100}% ${p.y * 100}%` }}
              className={`crop${r === target ? ' chosen' : ''}`}
            />
          );
        })}
      </div>
    </div>
  );
}
