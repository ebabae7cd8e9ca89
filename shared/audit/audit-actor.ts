/**
 * Who a request acts as, and where it comes from: set once per request (REST authentication) and
 * handed to every transaction it opens as `folio.*` settings, so the version history (`savedBy`)
 * and the audit log record it in the same transaction as the change.
 */
export interface AuditActor {
  type: 'member' | 'token';
  id: string;
  /** The member's email; for a token, empty (the audit row reads the token's name). */
  name: string;
  requestId?: string;
  clientAddress?: string;
  userAgent?: string;
  /**
   * What the request changes, when the route knows it before the domain runs (the field names of
   * an entry write): the audit rows of its transaction carry it as `changes`.
   */
  changes?: Record<string, unknown>;
}

/** The transaction settings of an actor (the triggers and `recordAudit` read them back). */
export function auditSettings(actor: AuditActor): Record<string, string> {
  return {
    'folio.actor': actor.id,
    'folio.actor_type': actor.type,
    'folio.actor_name': actor.name,
    'folio.request_id': actor.requestId ?? '',
    'folio.client_address': actor.clientAddress ?? '',
    'folio.user_agent': (actor.userAgent ?? '').slice(0, 500),
    'folio.changes': actor.changes ? JSON.stringify(actor.changes) : '',
  };
}

/**
 * The names a request body changes (never its values): the body's own members, and the field
 * and locale names of an entry write. Recorded as the audit rows' `changes` where the change
 * itself names nothing more precise.
 */
export function changedNamesOf(body: unknown): Record<string, string[]> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const keysOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).slice(0, 200) : []);
  const out: Record<string, string[]> = { set: Object.keys(record).slice(0, 200) };
  const fields = keysOf(record.fields);
  const locales = keysOf(record.locales);
  if (fields.length > 0) out.fields = fields;
  if (locales.length > 0) out.locales = locales;
  return out;
}
