export const SCOPES = ['delivery', 'preview', 'manage', 'analytics', 'video', 'ingest'] as const;
export type Scope = (typeof SCOPES)[number];
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
