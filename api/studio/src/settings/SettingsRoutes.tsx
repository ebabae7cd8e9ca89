import type { ReactNode } from 'react';
import type { Me } from '../types';
import { ComponentEditor, ComponentsList } from './components/ComponentsScreen';
import { LocalesScreen } from './LocalesScreen';
import ModelEditor from './models/ModelEditor';
import { ModelsList } from './models/ModelsList';
import { ResourceScreen } from './resources/ResourceScreen';
import { SitesScreen } from './resources/SitesScreen';
import { SettingsHome } from './SettingsHome';

type Render = (me: Me, match: RegExpExecArray) => ReactNode;
const alias = (match: RegExpExecArray) => decodeURIComponent(match[1]);

/** `/models…` and `/settings…`, first match wins; a screen of another section adds its line here. */
const ROUTES: Array<[RegExp, Render]> = [
  [/^\/models$/, (me) => <ModelsList me={me} />],
  [/^\/models\/new$/, (me) => <ModelEditor key="new" alias={null} me={me} />],
  [/^\/models\/([^/?]+)$/, (me, x) => <ModelEditor key={alias(x)} alias={alias(x)} me={me} />],
  [/^\/settings$/, (me) => <SettingsHome me={me} />],
  [/^\/settings\/locales$/, (me) => <LocalesScreen me={me} />],
  [/^\/settings\/components$/, (me) => <ComponentsList me={me} />],
  [/^\/settings\/components\/new$/, (me) => <ComponentEditor key="new" alias={null} me={me} />],
  [/^\/settings\/components\/([^/?]+)$/, (me, x) => <ComponentEditor key={alias(x)} alias={alias(x)} me={me} />],
  [/^\/settings\/sites$/, (me) => <SitesScreen me={me} />],
  [/^\/settings\/sections$/, (me) => <ResourceScreen kind="sections" me={me} />],
  [/^\/settings\/authors$/, (me) => <ResourceScreen kind="authors" me={me} />],
  [/^\/settings\/labels$/, (me) => <ResourceScreen kind="labels" me={me} />],
  [/^\/settings\/lists$/, (me) => <ResourceScreen kind="lists" me={me} />],
];

/** The modelling and settings screens, loaded apart from the content screens. */
export default function SettingsRoutes({ route, me }: { route: string; me: Me }) {
  const path = route.split('?')[0];
  for (const [pattern, render] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return render(me, match);
  }
  return (
    <main className="content">
      <h1>Not found</h1>
      <p>No settings screen at {path}.</p>
    </main>
  );
}
