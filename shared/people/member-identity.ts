import type { RoleRules } from './roles.js';

/** A member acting through a session or a personal access token: who, under which role. */
export interface MemberIdentity {
  id: string;
  email: string;
  name: string | null;
  role: string;
  rules: RoleRules;
  /** The session's id (for a personal access token: the token's). */
  sessionId: string;
  /** How the member authenticated: account routes (sessions, second factor, tokens) need a session. */
  credential: 'session' | 'personal-token';
}
