import { useQuery } from '@tanstack/react-query';
import { call, m } from './api';
import { Link } from './Link';
import type { Entry } from './types';

/**
 * Where an asset is used: the entries whose media fields, media blocks or components name it
 * (the entries list filtered by the asset, so a role sees only the entries it may read).
 */
export function AssetUses({ id }: { id: string }) {
  const uses = useQuery({ queryKey: ['entries', 'asset', id], queryFn: () => call<Entry[]>('GET', m(`/entries?asset=${encodeURIComponent(id)}&pageSize=50&sort=updatedAt`)) });
  const rows = uses.data?.result ?? [];
  return (
    <section className="asset-uses" aria-labelledby="asset-uses-title">
      <h3 id="asset-uses-title">Where it is used</h3>
      {uses.isError && <p role="alert">{uses.error.message}</p>}
      {uses.isPending && <p className="muted">Looking…</p>}
      {uses.data && rows.length === 0 && <p className="muted">No entry uses this asset.</p>}
      {rows.length > 0 && (
        <ul aria-label="Entries using this asset">
          {rows.map((e) => (
            <li key={e.id}>
              <Link to={`/entries/${encodeURIComponent(e.id)}`}>{e.title || e.id}</Link> <span className="muted">{e.status.toLowerCase()}</span>
            </li>
          ))}
        </ul>
      )}
      {uses.data?.resultInfo?.hasNextPage && <p className="muted">The 50 most recently updated are listed.</p>}
    </section>
  );
}
