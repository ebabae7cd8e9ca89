import type { Me } from '../types';

// The people, integration and organization sections of the Settings (one entry per screen), in
// the shape of the Settings index's registry: the Studio shows a section only to whom the API
// lets use it, and the API still refuses everyone else.

export interface AdminSection {
  id: string;
  label: string;
  /** The path under /studio. */
  path: string;
  group: 'People and access' | 'Integration' | 'Organization';
  visibleTo(me: Me): boolean;
}

const area = (name: string) => (me: Me) => me.rules.settings.includes(name);

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { id: 'members', label: 'Members', path: '/settings/members', group: 'People and access', visibleTo: area('members') },
  { id: 'roles', label: 'Roles', path: '/settings/roles', group: 'People and access', visibleTo: area('members') },
  { id: 'sso', label: 'Single sign-on', path: '/settings/sso', group: 'People and access', visibleTo: area('sso') },
  { id: 'tokens', label: 'API tokens', path: '/settings/tokens', group: 'People and access', visibleTo: area('tokens') },
  { id: 'audit-log', label: 'Audit log', path: '/settings/audit-log', group: 'People and access', visibleTo: area('members') },
  { id: 'webhooks', label: 'Webhooks', path: '/settings/webhooks', group: 'Integration', visibleTo: area('webhooks') },
  { id: 'purge-targets', label: 'Purge targets', path: '/settings/purge-targets', group: 'Integration', visibleTo: area('webhooks') },
  // delivery settings are written with the models area, allowed origins and documents with tokens
  { id: 'delivery', label: 'Delivery', path: '/settings/delivery', group: 'Integration', visibleTo: (me) => area('models')(me) && area('tokens')(me) },
  { id: 'organization', label: 'Organization', path: '/settings/organization', group: 'Organization', visibleTo: () => true },
];

/** The section a route opens, or undefined when the route is not one of these. */
export const adminSectionOf = (route: string): AdminSection | undefined => {
  const path = route.split('?')[0];
  return ADMIN_SECTIONS.find((s) => path === s.path || path.startsWith(`${s.path}/`));
};
