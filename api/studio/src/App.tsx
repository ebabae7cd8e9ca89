import { lazy, Suspense } from 'react';
import { AcceptInvitation } from './AcceptInvitation';
import { EntriesList } from './EntriesList';
import { Layout, type Place } from './Layout';
import { useRoute } from './router';
import { useMe } from './session';
import { SignIn } from './SignIn';
import { adminSectionOf } from './settings/admin-sections';

// The editor (and TipTap with it) and the media library load when first opened: the sign-in and
// the list stay small.
const EntryEditor = lazy(() => import('./editor/EntryEditor'));
const Assets = lazy(() => import('./Assets'));
const SettingsRoutes = lazy(() => import('./settings/SettingsRoutes'));
const AdminSettings = lazy(() => import('./settings/AdminSettings'));

export function App() {
  const route = useRoute();
  const me = useMe();
  if (route.startsWith('/accept')) return <AcceptInvitation />;
  if (me.isPending) return <p className="loading">Loading…</p>;
  if (me.isError) return <p role="alert">The Studio could not reach the API: {me.error.message}</p>;
  if (!me.data) return <SignIn />;
  const entry = /^\/entries\/([^/?]+)/.exec(route);
  const fresh = route.startsWith('/new?') ? new URLSearchParams(route.slice(5)) : null;
  const admin = adminSectionOf(route);
  const current: Place = route.startsWith('/assets') ? 'assets' : /^\/models(\/|$|\?)/.test(route) ? 'models' : admin || /^\/settings(\/|$|\?)/.test(route) ? 'settings' : 'content';
  return (
    <Layout me={me.data} current={current}>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        {admin ? (
          <AdminSettings me={me.data} section={admin} route={route} />
        ) : entry ? (
          <EntryEditor key={entry[1]} id={decodeURIComponent(entry[1])} me={me.data} />
        ) : fresh ? (
          <EntryEditor key={route} fresh={{ model: fresh.get('model') ?? '', siteId: fresh.get('site') ?? '' }} me={me.data} />
        ) : current === 'assets' ? (
          <Assets />
        ) : current === 'models' || current === 'settings' ? (
          <SettingsRoutes route={route} me={me.data} />
        ) : (
          <EntriesList me={me.data} />
        )}
      </Suspense>
    </Layout>
  );
}
