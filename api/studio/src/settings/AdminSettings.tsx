import { lazy, Suspense, type ComponentType } from 'react';
import { Link } from '../Link';
import type { Me } from '../types';
import { ADMIN_SECTIONS, type AdminSection } from './admin-sections';
import './admin.css';

// Each screen loads when first opened.
const SCREENS: Record<string, ComponentType<{ me: Me; route: string }>> = {
  members: lazy(() => import('./people/Members')),
  roles: lazy(() => import('./people/Roles')),
  sso: lazy(() => import('./people/SingleSignOn')),
  tokens: lazy(() => import('./people/Tokens')),
  'audit-log': lazy(() => import('./people/AuditLog')),
  webhooks: lazy(() => import('./integration/Webhooks')),
  'purge-targets': lazy(() => import('./integration/PurgeTargets')),
  delivery: lazy(() => import('./integration/Delivery')),
  organization: lazy(() => import('./organization/Organization')),
};

/** A people, integration or organization section: the sections this member may use beside it. */
export default function AdminSettings({ me, section, route }: { me: Me; section: AdminSection; route: string }) {
  const visible = ADMIN_SECTIONS.filter((s) => s.visibleTo(me));
  const Screen = SCREENS[section.id];
  return (
    <div className="settings-frame">
      <nav aria-label="Settings sections" className="settings-nav">
        {(['People and access', 'Integration', 'Organization'] as const).map((group) => {
          const items = visible.filter((s) => s.group === group);
          return items.length === 0 ? null : (
            <div key={group}>
              <h2>{group}</h2>
              <ul>
                {items.map((s) => (
                  <li key={s.id}>
                    <Link to={s.path} aria-current={s.id === section.id ? 'page' : undefined}>
                      {s.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <main className="content settings-main">
        {section.visibleTo(me) ? (
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <Screen me={me} route={route} />
          </Suspense>
        ) : (
          <p role="alert">Your role ({me.role}) does not include {section.label}.</p>
        )}
      </main>
    </div>
  );
}
