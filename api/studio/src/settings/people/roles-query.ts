import { useQuery } from '@tanstack/react-query';
import { get, m } from '../../api';

/** The rules of a role as `GET /management/v1/roles` answers them. */
export interface RoleRulesView {
  models: Record<string, { read: boolean; create: boolean; update: boolean; publish: boolean; delete: boolean; ownEntriesOnly: boolean; hiddenFields: string[]; readOnlyFields: string[] }>;
  locales: string[] | null;
  assets: { upload: boolean; edit: boolean; delete: boolean };
  settings: string[];
}

export interface RoleView {
  id: string;
  name: string;
  builtIn: boolean;
  rules: RoleRulesView;
}

/** The organization's roles, built-in first. */
export const useRoles = () => useQuery({ queryKey: ['roles'], queryFn: () => get<RoleView[]>(m('/roles')) });
