import type { Envelope } from './api';

/** Previous / next page of a listing, with where the reader is. */
export function Pager({ info, onPage, noun }: { info: NonNullable<Envelope<unknown>['resultInfo']>; onPage: (page: number) => void; noun: string }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={!info.hasPreviousPage} onClick={() => onPage(info.pageIndex - 1)}>
        Previous page
      </button>
      <span>
        Page {info.pageIndex} of {Math.max(info.totalPages, 1)} · {info.totalCount} {noun}
      </span>
      <button type="button" disabled={!info.hasNextPage} onClick={() => onPage(info.pageIndex + 1)}>
        Next page
      </button>
    </nav>
  );
}
