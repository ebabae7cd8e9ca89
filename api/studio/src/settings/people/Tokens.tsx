import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, m } from '../../api';
import { Pager } from '../../Pager';
import { isoOf, Outcome, ShownOnce, Table, useAction, when } from '../admin-kit';
import { RoleSelect } from './RoleSelect';

interface Token {
  id: string;
  name: string;
  scopes: string[];
  publishable: boolean;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  replacedBy: string | null;
  role: string | null;
  personId: string | null;
}

const SCOPES = ['manage', 'preview', 'delivery', 'analytics'] as const;
type Kind = 'scopes' | 'role' | 'publishable';

const stateOf = (t: Token): string =>
  t.revokedAt ? 'revoked' : t.expiresAt && new Date(t.expiresAt) <= new Date() ? 'expired' : t.replacedBy ? `rotated, works until ${when(t.expiresAt)}` : 'active';
const grantOf = (t: Token): string => (t.publishable ? 'publishable key' : t.role ? `role ${t.role}` : t.personId ? 'personal' : t.scopes.join(', '));

/** API tokens and publishable keys: made (shown once), rotated with an overlap, revoked; expiry and last use. */
export default function Tokens() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const tokens = useQuery({ queryKey: ['tokens', page], queryFn: () => call<Token[]>('GET', m(`/tokens?pageIndex=${page}&pageSize=50`)) });
  const create = useAction();
  const row = useAction();
  const [form, setForm] = useState({ name: '', kind: 'scopes' as Kind, scopes: ['delivery'] as string[], role: 'viewer', expires: '' });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['tokens'] });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run(async () => {
      const grant = form.kind === 'role' ? { role: form.role } : form.kind === 'publishable' ? { scopes: ['delivery'], publishable: true } : { scopes: form.scopes };
      const res = await call<Token & { token: string }>('POST', m('/tokens'), { name: form.name, ...grant, expiresAt: isoOf(form.expires) });
      setSecret({ name: res.result.name, token: res.result.token });
      set({ name: '' });
      await refresh();
      return res.messages.join(' ');
    });
  };

  const rotate = (t: Token) =>
    row.run(async () => {
      const res = await call<Token & { token: string }>('POST', m(`/tokens/${encodeURIComponent(t.id)}/rotate`), {});
      setSecret({ name: res.result.name, token: res.result.token });
      await refresh();
      return res.messages.join(' ');
    });
  const revoke = (t: Token) =>
    row.run(async () => {
      await call('DELETE', m(`/tokens/${encodeURIComponent(t.id)}`));
      await refresh();
      return `${t.name} is revoked: its next call is refused.`;
    });

  return (
    <>
      <h1>API tokens</h1>
      <section aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">New token</h2>
        <form noValidate onSubmit={submit}>
          <label>
            Token name
            <input value={form.name} onChange={(e) => set({ name: e.target.value })} autoComplete="off" />
          </label>
          <label>
            Kind
            <select value={form.kind} onChange={(e) => set({ kind: e.target.value as Kind })}>
              <option value="scopes">Scopes</option>
              <option value="role">Acts under a role</option>
              <option value="publishable">Publishable key (published content, safe in a web page)</option>
            </select>
          </label>
          {form.kind === 'scopes' && (
            <fieldset>
              <legend>Scopes</legend>
              {SCOPES.map((s) => (
                <label key={s}>
                  <input type="checkbox" checked={form.scopes.includes(s)} onChange={(e) => set({ scopes: e.target.checked ? [...form.scopes, s] : form.scopes.filter((x) => x !== s) })} /> {s}
                </label>
              ))}
            </fieldset>
          )}
          {form.kind === 'role' && (
            <label>
              Token role
              <RoleSelect value={form.role} onChange={(role) => set({ role })} />
            </label>
          )}
          <label>
            Expires (empty: never)
            <input type="datetime-local" value={form.expires} onChange={(e) => set({ expires: e.target.value })} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Create token
            </button>
          </div>
          <Outcome action={create} />
        </form>
        {secret && <ShownOnce label={`Token ${secret.name}`} value={secret.token} />}
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Tokens</h2>
        {tokens.isError && <p role="alert">{tokens.error.message}</p>}
        <Outcome action={row} />
        <Table caption="Tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Grants</th>
              <th scope="col">State</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(tokens.data?.result ?? []).map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{grantOf(t)}</td>
                <td>{stateOf(t)}</td>
                <td>{when(t.lastUsedAt)}</td>
                <td>{when(t.expiresAt)}</td>
                <td>
                  {!t.revokedAt && !t.replacedBy && (
                    <div className="actions">
                      {!t.personId && (
                        <button type="button" aria-label={`Rotate ${t.name}`} disabled={row.busy} onClick={() => void rotate(t)}>
                          Rotate
                        </button>
                      )}
                      <button type="button" className="danger-button" aria-label={`Revoke ${t.name}`} disabled={row.busy} onClick={() => void revoke(t)}>
                        Revoke
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        {tokens.data?.resultInfo && tokens.data.resultInfo.totalPages > 1 && <Pager info={tokens.data.resultInfo} onPage={setPage} noun="tokens" />}
      </section>
    </>
  );
}
