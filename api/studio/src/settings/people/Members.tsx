import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, m } from '../../api';
import { Pager } from '../../Pager';
import { hrefOf } from '../../router';
import { Outcome, ShownOnce, Table, useAction, when } from '../admin-kit';
import { RoleSelect } from './RoleSelect';
import { useRoles } from './roles-query';

interface Member {
  id: string;
  email: string;
  name: string | null;
  role: string;
  source: 'invitation' | 'sso';
  createdAt: string;
}

interface Invitation {
  email: string;
  role: string;
  token: string;
  expiresAt: string;
  emailed: boolean;
}

/** Members and their roles; invitations (the link is shown once, and emailed when mail is set up). */
export default function Members() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const members = useQuery({ queryKey: ['members', page], queryFn: () => call<Member[]>('GET', m(`/members?pageIndex=${page}&pageSize=50`)) });
  const roles = useRoles();
  const invite = useAction();
  const change = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('author');
  const [invited, setInvited] = useState<Invitation | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void invite.run(async () => {
      const res = await call<Invitation>('POST', m('/invitations'), { email, role });
      setInvited(res.result);
      setEmail('');
      return res.messages.join(' ');
    });
  };

  const setRoleOf = (member: Member, next: string) =>
    change.run(async () => {
      await call('PATCH', m(`/members/${encodeURIComponent(member.id)}`), { role: next });
      await qc.invalidateQueries({ queryKey: ['members'] });
      return `${member.email} is now ${next}.`;
    });

  const roleOptions = roles.data ?? [];
  const nameOf = (id: string) => roleOptions.find((r) => r.id === id)?.name ?? id;
  return (
    <>
      <h1>Members</h1>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a member</h2>
        <form noValidate onSubmit={submit}>
          <label>
            Email
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
          </label>
          <label>
            Invite as
            <RoleSelect value={role} onChange={setRole} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={invite.busy}>
              Invite
            </button>
          </div>
          <Outcome action={invite} />
        </form>
        {invited && (
          // the Studio's own page takes the password; the token rides in the fragment, never sent in a request line
          <ShownOnce label="Invitation link" value={`${location.origin}${hrefOf('/accept')}#token=${encodeURIComponent(invited.token)}`}>
            {' '}
            It lets {invited.email} join as {nameOf(invited.role)} until {when(invited.expiresAt)}.
          </ShownOnce>
        )}
      </section>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {members.isError && <p role="alert">{members.error.message}</p>}
        <Outcome action={change} />
        <Table caption="Members">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {(members.data?.result ?? []).map((mb) => (
              <tr key={mb.id}>
                <td>{mb.email}</td>
                <td>{mb.name ?? '—'}</td>
                <td>
                  <RoleSelect label={`Role of ${mb.email}`} value={mb.role} disabled={change.busy} onChange={(next) => void setRoleOf(mb, next)} />
                </td>
                <td>
                  {when(mb.createdAt)}
                  {mb.source === 'sso' && <span className="muted"> · single sign-on</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        {members.data?.resultInfo && members.data.resultInfo.totalPages > 1 && <Pager info={members.data.resultInfo} onPage={setPage} noun="members" />}
      </section>
    </>
  );
}
