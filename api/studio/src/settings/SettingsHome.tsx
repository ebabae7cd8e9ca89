import { Link } from '../Link';
import type { Me } from '../types';
import { sectionsFor } from './sections';

/** `/settings`: every settings section the member's role may open, from the one registry. */
export function SettingsHome({ me }: { me: Me }) {
  const sections = sectionsFor(me);
  return (
    <main className="content settings">
      <h1>Settings</h1>
      {sections.length === 0 ? (
        <p>Your role opens no settings.</p>
      ) : (
        <ul className="settings-list">
          {sections.map((s) => (
            <li key={s.id}>
              <Link to={s.path}>{s.label}</Link>
              <span className="muted">{s.description}</span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
