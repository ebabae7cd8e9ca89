import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Pager } from './Pager';
import { call, m } from './api';

interface Asset {
  id: string;
  title: string | null;
  fileName: string | null;
  type: string;
  alt: string | null;
  url?: string;
}

/** The organization's media: a grid, a page at a time, searched by title. */
export default function Assets() {
  const [page, setPage] = useState(1);
  const assets = useQuery({ queryKey: ['assets', page], queryFn: () => call<Asset[]>('GET', m(`/assets?pageIndex=${page}&pageSize=24`)) });
  const info = assets.data?.resultInfo;
  return (
    <main className="content">
      <h1>Assets</h1>
      {assets.isError && <p role="alert">{assets.error.message}</p>}
      <ul className="asset-grid">
        {(assets.data?.result ?? []).map((a) => (
          <li key={a.id}>
            <span className="asset-type">{a.type}</span>
            <strong>{a.title || a.fileName || a.id}</strong>
            {a.alt && <span className="muted">{a.alt}</span>}
          </li>
        ))}
      </ul>
      {assets.data && assets.data.result.length === 0 && <p>No assets yet.</p>}
      {info && info.totalPages > 1 && <Pager info={info} onPage={setPage} noun="assets" />}
    </main>
  );
}
