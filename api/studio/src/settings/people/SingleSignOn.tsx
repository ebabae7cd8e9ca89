import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, call, get, m } from '../../api';
import { listOf, Outcome, useAction, when } from '../admin-kit';
import { RoleSelect } from './RoleSelect';

interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecretSet: boolean;
  allowedDomains: string[];
  defaultRole: string;
  roleClaim: string | null;
  roleMappings: Array<{ value: string; role: string }>;
  ssoOnly: boolean;
  redirectUri: string;
  startUrl: string;
  updatedAt: string;
}

const mappingsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.split('='))
    .filter((parts) => parts.length === 2 && parts[0].trim() !== '')
    .map(([value, role]) => ({ value: value.trim(), role: role.trim() }));

/** OpenID Connect single sign-on: the issuer's client, who may sign in and as what; and a test sign-in. */
export default function SingleSignOn() {
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: ['sso'],
    queryFn: async () => {
      try {
        return await get<SsoSettings>(m('/sso'));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const save = useAction();
  const remove = useAction();
  const [form, setForm] = useState({ issuer: '', clientId: '', clientSecret: '', domains: '', defaultRole: 'viewer', roleClaim: '', mappings: '', ssoOnly: false });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));

  useEffect(() => {
    const s = settings.data;
    if (s)
      setForm({
        issuer: s.issuer,
        clientId: s.clientId,
        clientSecret: '',
        domains: s.allowedDomains.join(', '),
        defaultRole: s.defaultRole,
        roleClaim: s.roleClaim ?? '',
        mappings: s.roleMappings.map((r) => `${r.value} = ${r.role}`).join('\n'),
        ssoOnly: s.ssoOnly,
      });
  }, [settings.data]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      const body = {
        issuer: form.issuer,
        clientId: form.clientId,
        ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
        allowedDomains: listOf(form.domains),
        defaultRole: form.defaultRole,
        roleClaim: form.roleClaim.trim() || null,
        roleMappings: mappingsOf(form.mappings),
        ssoOnly: form.ssoOnly,
      };
      const res = await call<SsoSettings>('PUT', m('/sso'), body);
      await qc.invalidateQueries({ queryKey: ['sso'] });
      return ['Saved.', ...res.messages].join(' ');
    });
  };

  const s = settings.data;
  // a new window through the issuer's pages; a test sign-in ends on a page naming who would sign in
  // with which role, and neither makes a member nor replaces this session
  const test = () => s && window.open(`${s.startUrl}?test=1&returnTo=${encodeURIComponent('/studio/settings/sso')}`, 'folio-sso-test', 'noopener');
  return (
    <>
      <h1>Single sign-on</h1>
      {settings.isError && <p role="alert">{settings.error.message}</p>}
      {s ? (
        <p>
          Set up since {when(s.updatedAt)}. Register the redirect URI <code>{s.redirectUri}</code> with the issuer.
        </p>
      ) : (
        <p>Not set up: members sign in with their passwords.</p>
      )}
      <form noValidate onSubmit={submit}>
        <label>
          Issuer
          <input value={form.issuer} onChange={(e) => set({ issuer: e.target.value })} placeholder="https://login.example.com" />
        </label>
        <label>
          Client ID
          <input value={form.clientId} onChange={(e) => set({ clientId: e.target.value })} autoComplete="off" />
        </label>
        <label>
          Client secret
          <input type="password" value={form.clientSecret} onChange={(e) => set({ clientSecret: e.target.value })} autoComplete="new-password" placeholder={s?.clientSecretSet ? 'unchanged' : ''} />
        </label>
        <label>
          Allowed email domains
          <input value={form.domains} onChange={(e) => set({ domains: e.target.value })} placeholder="example.com, example.org" />
        </label>
        <label>
          Default role
          <RoleSelect value={form.defaultRole} onChange={(defaultRole) => set({ defaultRole })} />
        </label>
        <label>
          Role claim
          <input value={form.roleClaim} onChange={(e) => set({ roleClaim: e.target.value })} placeholder="groups" />
        </label>
        <label>
          Role mappings (one per line: claim value = role)
          <textarea rows={3} value={form.mappings} onChange={(e) => set({ mappings: e.target.value })} />
        </label>
        <label>
          <input type="checkbox" checked={form.ssoOnly} onChange={(e) => set({ ssoOnly: e.target.checked })} /> Single sign-on only (passwords refused)
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.busy}>
            Save single sign-on
          </button>
          <button type="button" disabled={!s} onClick={test}>
            Test sign-in
          </button>
          {s && (
            <button
              type="button"
              className="danger-button"
              disabled={remove.busy}
              onClick={() =>
                void remove.run(async () => {
                  await call('DELETE', m('/sso'));
                  await qc.invalidateQueries({ queryKey: ['sso'] });
                  return 'Single sign-on removed.';
                })
              }
            >
              Remove single sign-on
            </button>
          )}
        </div>
        <Outcome action={save} />
        <Outcome action={remove} />
      </form>
    </>
  );
}
