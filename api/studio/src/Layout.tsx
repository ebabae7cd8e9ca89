import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { call } from './api';
import { Link } from './Link';
import { navigate } from './router';
import { CommandPalette } from './CommandPalette';
import { readsContent } from './settings/access';
import { sectionsFor } from './settings/sections';
import { SignIn } from './SignIn';
import type { Me } from './types';

/** The frame of every signed-in screen: the navigation (behind a menu button when narrow), the organization, sign-out. */
export type Place = 'content' | 'assets' | 'models' | 'settings';

export function Layout({ me, current, children }: { me: Me; current: Place; children: ReactNode }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [switchTo, setSwitchTo] = useState<string | null>(null);

  const signOut = async () => {
    await call('POST', '/auth/sign-out').catch(() => undefined);
    navigate('');
    await qc.resetQueries();
  };

  const close = () => setOpen(false);
  return (
    <div className="shell">
      <header className="top">
        <a className="brand" href="/studio">
          Folio Studio
        </a>
        <button type="button" className="menu-button" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpen((o) => !o)}>
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" className={open ? 'open' : undefined}>
          <Link to="" aria-current={current === 'content' ? 'page' : undefined} onClick={close}>
            Content
          </Link>
          <Link to="/assets" aria-current={current === 'assets' ? 'page' : undefined} onClick={close}>
            Assets
          </Link>
          {readsContent(me) && (
            <Link to="/models" aria-current={current === 'models' ? 'page' : undefined} onClick={close}>
              Models
            </Link>
          )}
          {sectionsFor(me).length > 0 && (
            <Link to="/settings" aria-current={current === 'settings' ? 'page' : undefined} onClick={close}>
              Settings
            </Link>
          )}
          {/* the dashboard opens with this session when the role reads analytics; the API refuses it otherwise */}
          {me.rules.settings.includes('analytics') ? <a href="/dashboard">Analytics</a> : null}
          <CommandPalette me={me} />
          <div className="account">
            {me.memberships.length > 1 ? (
              <label>
                Organization
                <select
                  value={me.organization.id}
                  onChange={(e) => setSwitchTo(e.target.value === me.organization.id ? null : e.target.value)}
                >
                  {me.memberships.map((m) => (
                    <option key={m.organizationId} value={m.organizationId}>
                      {m.name} ({m.role})
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span className="org">{me.memberships[0]?.name ?? me.organization.slug}</span>
            )}
            <span className="who">
              {me.email} · {me.role}
            </span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </nav>
      </header>
      {switchTo ? (
        // a session belongs to one organization: switching signs in again into the other one
        <div className="switch">
          <p>Sign in again to switch to {me.memberships.find((m) => m.organizationId === switchTo)?.name}.</p>
          <SignIn organization={switchTo} onDone={() => setSwitchTo(null)} />
          <button type="button" onClick={() => setSwitchTo(null)}>
            Cancel
          </button>
        </div>
      ) : (
        children
      )}
    </div>
  );
}
