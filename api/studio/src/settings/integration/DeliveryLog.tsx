import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api';
import { Pager } from '../../Pager';
import { Outcome, Table, useAction, when } from '../admin-kit';

/** One delivery of a webhook or a purge target, as their logs answer it. */
export interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** A delivery log (status, attempts, the last answer's code and excerpt), newest first; redeliver when `redeliverPath` is given. */
export function DeliveryLog({ path, name, redeliverPath }: { path: string; name: string; redeliverPath?: (deliveryId: string) => string }) {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const log = useQuery({ queryKey: ['deliveries', path, page], queryFn: () => call<Delivery[]>('GET', `${path}?pageIndex=${page}&pageSize=20`), refetchInterval: 3000 });
  const redeliver = useAction();
  return (
    <>
      {log.isError && <p role="alert">{log.error.message}</p>}
      <Outcome action={redeliver} />
      <Table caption={`Deliveries of ${name}`}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Response</th>
            <th scope="col">Created</th>
            {redeliverPath && <th scope="col">Again</th>}
          </tr>
        </thead>
        <tbody>
          {(log.data?.result ?? []).map((d) => (
            <tr key={d.id}>
              <td>{d.eventType}</td>
              <td>
                <span className={`status status-${d.status === 'succeeded' ? 'published' : d.status === 'pending' ? 'scheduled' : 'failed'}`}>{d.status}</span>
                {d.nextAttemptAt && <span className="muted"> next {when(d.nextAttemptAt)}</span>}
              </td>
              <td className="num">{d.attempts}</td>
              <td>
                {d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : ''}
                {d.lastDurationMs !== null ? ` · ${d.lastDurationMs} ms` : ''}
                {d.lastError && <span className="muted"> {d.lastError}</span>}
                {d.responseExcerpt && <pre className="excerpt">{d.responseExcerpt}</pre>}
              </td>
              <td>{when(d.createdAt)}</td>
              {redeliverPath && (
                <td>
                  <button
                    type="button"
                    aria-label={`Redeliver ${d.eventType} of ${when(d.createdAt)}`}
                    disabled={redeliver.busy}
                    onClick={() =>
                      void redeliver.run(async () => {
                        const res = await call('POST', redeliverPath(d.id));
                        await qc.invalidateQueries({ queryKey: ['deliveries', path] });
                        return res.messages.join(' ');
                      })
                    }
                  >
                    Redeliver
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
      {log.data && log.data.result.length === 0 && <p>No deliveries yet.</p>}
      {log.data?.resultInfo && log.data.resultInfo.totalPages > 1 && <Pager info={log.data.resultInfo} onPage={setPage} noun="deliveries" />}
    </>
  );
}
