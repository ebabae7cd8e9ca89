import type { RoleRules } from './roles.js';

/** A member acting through a session: who, under which role. */
export interface MemberIdentity {
  id: string;
  email: string;
  name: string | null;
  role: string;
  rules: RoleRules;
  sessionId: string;
}
