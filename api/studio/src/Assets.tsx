import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { call, m } from './api';
import { Pager } from './Pager';
import { uploadAsset } from './upload';
import { AssetDetail, type Asset } from './AssetDetail';
import { AssetTable } from './AssetTable';

interface Upload {
  name: string;
  progress: number;
  error?: string;
  done?: boolean;
}

/** A thumbnail only from this origin: the CSP lets the page load images from nowhere else. */
const sameOrigin = (url: string | undefined) => !!url && new URL(url, location.href).origin === location.origin;

const TYPES = ['IMAGE', 'VIDEO', 'AUDIO', 'FILE'];

/**
 * The organization's media: searched by words, tag and type, as a grid or a list, a page at a
 * time; and uploads of many files (picked or dropped) with progress.
 */
export default function Assets() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [view, setView] = useState<'grid' | 'list'>(() => (localStorage.getItem('folio.assets.view') === 'list' ? 'list' : 'grid'));
  const [filter, setFilter] = useState({ search: '', tag: '', type: '' });
  const params = new URLSearchParams({ pageIndex: String(page), pageSize: '24' });
  for (const [k, v] of Object.entries(filter)) if (v) params.set(k, v);
  const assets = useQuery({ queryKey: ['assets', params.toString()], queryFn: () => call<Asset[]>('GET', m(`/assets?${params}`)) });
  const show = (next: 'grid' | 'list') => (setView(next), localStorage.setItem('folio.assets.view', next));
  const toggle = (id: string) => setOpen(open === id ? null : id);
  const info = assets.data?.resultInfo;

  const upload = async (files: File[]) => {
    const start = uploads.length;
    setUploads((u) => [...u, ...files.map((f) => ({ name: f.name, progress: 0 }))]);
    const set = (i: number, patch: Partial<Upload>) => setUploads((u) => u.map((x, j) => (j === start + i ? { ...x, ...patch } : x)));
    // two at a time: many files finish sooner than one by one, without flooding the server
    let next = 0;
    const lane = async () => {
      while (next < files.length) {
        const i = next++;
        try {
          await uploadAsset(files[i], (p) => set(i, { progress: p }));
          set(i, { progress: 1, done: true });
        } catch (err) {
          set(i, { error: err instanceof Error ? err.message : String(err) });
        }
      }
    };
    await Promise.all([lane(), lane()]);
    await qc.invalidateQueries({ queryKey: ['assets'] });
  };

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void upload([...e.dataTransfer.files]);
  };

  return (
    <main className="content">
      <h1>Assets</h1>
      <div className={`dropzone${over ? ' over' : ''}`} onDragOver={(e) => (e.preventDefault(), setOver(true))} onDragLeave={() => setOver(false)} onDrop={drop}>
        <label>
          Upload files
          <input type="file" multiple onChange={(e) => (void upload([...(e.target.files ?? [])]), (e.target.value = ''))} />
        </label>
        <span className="muted">or drop them here</span>
      </div>
      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {uploads.map((u, i) => (
            <li key={i}>
              <span>{u.name}</span>
              <progress max={1} value={u.progress} aria-label={`Upload of ${u.name}`} />
              <span role="status">{u.error ? u.error : u.done ? 'Uploaded' : `${Math.round(u.progress * 100)}%`}</span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="filters"
        role="search"
        aria-label="Assets"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setFilter({ search: String(form.get('search') ?? '').trim(), tag: String(form.get('tag') ?? '').trim(), type: String(form.get('type') ?? '') });
          setPage(1);
        }}
      >
        <label className="grow">
          Search assets
          <input type="search" name="search" defaultValue={filter.search} />
        </label>
        <label>
          Tag
          <input name="tag" defaultValue={filter.tag} />
        </label>
        <label>
          Type
          <select name="type" defaultValue={filter.type}>
            <option value="">Any type</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Find</button>
        <div className="view-switch" role="group" aria-label="View">
          <button type="button" aria-pressed={view === 'grid'} onClick={() => show('grid')}>
            Grid
          </button>
          <button type="button" aria-pressed={view === 'list'} onClick={() => show('list')}>
            List
          </button>
        </div>
      </form>
      {assets.isError && <p role="alert">{assets.error.message}</p>}
      {(() => {
        const chosen = assets.data?.result.find((a) => a.id === open);
        return chosen ? <AssetDetail key={chosen.id} asset={chosen} thumbnail={sameOrigin(chosen.url)} onClose={() => setOpen(null)} /> : null;
      })()}
      {view === 'list' ? (
        <AssetTable assets={assets.data?.result ?? []} open={open} onOpen={toggle} thumbnail={(a) => sameOrigin(a.url)} />
      ) : (
        <ul className="asset-grid">
          {(assets.data?.result ?? []).map((a) => (
            <li key={a.id}>
              {a.type === 'IMAGE' && sameOrigin(a.url) && <img src={a.url} alt={a.alt ?? ''} loading="lazy" />}
              <span className="asset-type">{a.type}</span>
              <button type="button" className="link" aria-expanded={open === a.id} onClick={() => toggle(a.id)}>
                {a.title || a.fileName || a.id}
              </button>
              {a.alt && <span className="muted">{a.alt}</span>}
            </li>
          ))}
        </ul>
      )}
      {assets.data && assets.data.result.length === 0 && <p>{Object.values(filter).some(Boolean) ? 'No assets match.' : 'No assets yet.'}</p>}
      {info && info.totalPages > 1 && <Pager info={info} onPage={setPage} noun="assets" />}
    </main>
  );
}
