import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, get, m } from '../../api';
import { navigate } from '../../router';
import type { Me } from '../../types';
import { Outcome, useAction } from '../admin-kit';

interface OwnOrganization {
  id: string;
  slug: string;
  name: string | null;
  usage: { month: string; entries: number; assets: number; assetBytes: number; requests: number; imageTransforms: number };
}

const count = new Intl.NumberFormat();
/** Bytes in the largest unit that keeps a number ≥ 1 (1,000-based, as disks are sold). */
function bytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  for (; n >= 1000 && i < units.length - 1; i++) n /= 1000;
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

/** The organization: name, slug, usage at a glance; for owners, deleting it after typing its slug. */
export default function Organization({ me }: { me: Me }) {
  const org = useQuery({ queryKey: ['organization'], queryFn: () => get<OwnOrganization>(m('/organization')) });
  const u = org.data?.usage;
  const month = u ? new Date(`${u.month}T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';
  return (
    <>
      <h1>Organization</h1>
      {org.isError && <p role="alert">{org.error.message}</p>}
      {org.data && (
        <dl className="usage">
          <div>
            <dt>Name</dt>
            <dd>{org.data.name ?? '—'}</dd>
          </div>
          <div>
            <dt>Slug</dt>
            <dd>{org.data.slug}</dd>
          </div>
        </dl>
      )}
      {u && (
        <section aria-labelledby="usage-heading">
          <h2 id="usage-heading">Usage</h2>
          <dl className="usage">
            <div>
              <dt>Entries</dt>
              <dd>{count.format(u.entries)}</dd>
            </div>
            <div>
              <dt>Assets</dt>
              <dd>{count.format(u.assets)}</dd>
            </div>
            <div>
              <dt>Asset storage</dt>
              <dd>{bytes(u.assetBytes)}</dd>
            </div>
            <div>
              <dt>Requests in {month}</dt>
              <dd>{count.format(u.requests)}</dd>
            </div>
            <div>
              <dt>Image transforms in {month}</dt>
              <dd>{count.format(u.imageTransforms)}</dd>
            </div>
          </dl>
        </section>
      )}
      {me.role === 'owner' && org.data && <DangerZone slug={org.data.slug} />}
    </>
  );
}

function DangerZone({ slug }: { slug: string }) {
  const qc = useQueryClient();
  const remove = useAction();
  const [typed, setTyped] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void remove.run(async () => {
      await call('DELETE', m('/organization'), { confirm: typed });
      // every session of the organization is refused from now on: back to the sign-in
      navigate('');
      await qc.resetQueries();
    });
  };
  return (
    <section aria-labelledby="danger-heading" className="danger">
      <h2 id="danger-heading">Danger zone</h2>
      <p>Deleting the organization removes its content, assets, members, tokens and settings for good. Every token and session stops at once.</p>
      <form noValidate onSubmit={submit}>
        <label>
          Type {slug} to confirm
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <div className="actions">
          <button type="submit" className="danger-button" disabled={remove.busy}>
            Delete organization
          </button>
        </div>
        <Outcome action={remove} />
      </form>
    </section>
  );
}
