import type { Asset } from './AssetDetail';

const size = (n: number | undefined) => (n === undefined ? '' : n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The media library as a list: one row per asset, with what a grid has no room for. */
export function AssetTable({ assets, open, onOpen, thumbnail }: { assets: Asset[]; open: string | null; onOpen: (id: string) => void; thumbnail: (a: Asset) => boolean }) {
  return (
    <div className="table-wrap">
      <table className="asset-table">
        <caption className="visually-hidden">Assets</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Preview</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Size</th>
            <th scope="col">Tags</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {assets.map((a) => (
            <tr key={a.id}>
              <td>{a.type === 'IMAGE' && thumbnail(a) && <img src={a.url} alt="" loading="lazy" />}</td>
              <td>
                <button type="button" className="link" aria-expanded={open === a.id} onClick={() => onOpen(a.id)}>
                  {a.title || a.fileName || a.id}
                </button>
              </td>
              <td>{a.type.toLowerCase()}</td>
              <td>{size(a.size)}</td>
              <td>{(a.tags ?? []).join(', ')}</td>
              <td>{a.updatedAt && <time dateTime={a.updatedAt}>{new Date(a.updatedAt).toLocaleDateString()}</time>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
