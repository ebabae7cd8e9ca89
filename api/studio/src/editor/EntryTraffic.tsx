import { useQuery } from '@tanstack/react-query';
import { get, m } from '../api';

interface Project {
  id: string;
  distributions?: Array<{ id: string; name?: string | null }>;
}
interface EntriesReport {
  entries: Array<{ id: string; requests: number; visitors: number }>;
}

const DAYS = 30;

/**
 * The entry's traffic over the last 30 days, summed over the organization's distributions: the
 * analytics `entries` report narrowed to this entry. For members who read analytics; when
 * analytics cannot answer (none configured, the store down) it shows nothing rather than an error.
 */
export function EntryTraffic({ entryId }: { entryId: string }) {
  const traffic = useQuery({
    queryKey: ['entry-traffic', entryId],
    retry: false,
    staleTime: 60_000,
    queryFn: async () => {
      const projects = await get<Project[]>(m('/projects?pageSize=100'));
      const full = await Promise.all(projects.map((p) => get<Project>(m(`/projects/${encodeURIComponent(p.id)}`))));
      const from = new Date(Date.now() - DAYS * 86_400_000).toISOString();
      const reports = await Promise.all(
        full.flatMap((p) =>
          (p.distributions ?? []).map((d) =>
            get<EntriesReport>(`/api/v1/projects/${encodeURIComponent(p.id)}/distributions/${encodeURIComponent(d.id)}/analytics/entries?entry=${encodeURIComponent(entryId)}&from=${encodeURIComponent(from)}`),
          ),
        ),
      );
      const mine = reports.flatMap((r) => r.entries.filter((e) => e.id === entryId));
      return { distributions: reports.length, requests: mine.reduce((n, e) => n + e.requests, 0), visitors: mine.reduce((n, e) => n + e.visitors, 0) };
    },
  });
  if (!traffic.data || traffic.data.distributions === 0) return null;
  const { requests, visitors } = traffic.data;
  return (
    <section className="entry-traffic" aria-labelledby="traffic-title">
      <h2 id="traffic-title">Traffic</h2>
      <p>
        Last {DAYS} days: <strong>{requests.toLocaleString()}</strong> request{requests === 1 ? '' : 's'}, <strong>{visitors.toLocaleString()}</strong> visitor{visitors === 1 ? '' : 's'}.
      </p>
    </section>
  );
}
