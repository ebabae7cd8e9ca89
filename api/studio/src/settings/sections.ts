import type { Me } from '../types';
import { readsContent } from './access';
import { ADMIN_SECTIONS } from './admin-sections';

/**
 * One settings section of the Studio: where it lives and who sees it. The Settings page lists the
 * sections a member's `visibleTo` admits, and the command palette offers the same ones, so adding
 * a screen is one line here plus its route.
 */
export interface SettingsSection {
  /** Stable key (React key, test hooks). */
  id: string;
  /** The link's text: the section's accessible name. */
  label: string;
  /** Path under /studio. */
  path: string;
  /** One line said under the link. */
  description: string;
  /** Whether the member's role may open it (the API answers it); read from `/auth/me`. */
  visibleTo: (me: Me) => boolean;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  { id: 'models', label: 'Models', path: '/models', description: 'Content models, their fields and the GraphQL types they produce.', visibleTo: readsContent },
  { id: 'components', label: 'Components', path: '/settings/components', description: 'Typed groups of fields that models hold.', visibleTo: readsContent },
  { id: 'locales', label: 'Locales', path: '/settings/locales', description: 'Languages, the default and their fallbacks.', visibleTo: readsContent },
  { id: 'sites', label: 'Sites', path: '/settings/sites', description: 'The sites entries belong to.', visibleTo: readsContent },
  { id: 'sections', label: 'Sections', path: '/settings/sections', description: 'The tree of sections entries are filed under.', visibleTo: readsContent },
  { id: 'authors', label: 'Authors', path: '/settings/authors', description: 'Bylines entries credit.', visibleTo: readsContent },
  { id: 'labels', label: 'Labels', path: '/settings/labels', description: 'Labels that tag entries.', visibleTo: readsContent },
  { id: 'lists', label: 'Lists', path: '/settings/lists', description: 'Curated lists of entries with their display windows.', visibleTo: readsContent },
  // people and access, integration, organization: their own registry, listed here too
  ...ADMIN_SECTIONS.map((s) => ({ id: s.id, label: s.label, path: s.path, description: s.group, visibleTo: (me: Me) => s.visibleTo(me) })),
];

/** The sections `me` may open, in the registry's order. */
export const sectionsFor = (me: Me) => SETTINGS_SECTIONS.filter((s) => s.visibleTo(me));
