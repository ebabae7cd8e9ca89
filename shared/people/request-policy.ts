import type { Queryable } from '../adapters/db/index.js';
import { forbidden } from '../errors/index.js';
import { authorize, authorizeEntries, authorizeFieldWrite, authorizePreviewLink, can, modelRules, rulesOf, type PolicyActor } from './policy.js';
import type { SettingsArea } from './roles.js';

/**
 * The policy at the management API's door, for members: every request is named as the action it
 * performs on its subject (a settings area, assets, an entry of a model — read from the entry when
 * the path names one) and asked of `can`. API tokens with the manage scope act as admins, so this
 * never narrows them. The content rules (fields, locales) are asked here too, from the body.
 */

export interface PolicyRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  body: unknown;
}

const WRITE = (m: string) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS';

/** Path prefixes (after /management/v1/) → the settings area they belong to, for reads and writes. */
const AREA_ALWAYS: Array<[RegExp, SettingsArea]> = [
  [/^(tokens|persisted-documents)(\/|$)/, 'tokens'],
  [/^(webhooks|purge-targets)(\/|$)/, 'webhooks'],
  [/^(members|invitations|roles|audit-log)(\/|$)/, 'members'],
  // a distribution's goals, funnels and shared links (read and written) are analytics
  // configuration: which paths an organization watches, and who else sees them, is for those who
  // read its analytics
  [/^projects\/[^/]+\/distributions\/[^/]+\/(goals|funnels|shared-links)(\/|$)/, 'analytics'],
  [/^(analytics-settings|projects|ingest)(\/|$)/, 'analytics'],
  [/^sso(\/|$)/, 'sso'],
];
/** Prefixes whose reads anyone may do, and whose writes need the area. */
const AREA_WRITES: Array<[RegExp, SettingsArea]> = [
  [/^(models|components|locales|delivery-settings|version-retention)(\/|$)/, 'models'],
  [/^allowed-origins(\/|$)/, 'tokens'],
  // every entry names its site: whoever writes entries reads the sites to choose one
  [/^sites(\/|$)/, 'analytics'],
];
/** Content structures besides entries: writing them is updating content. */
const CONTENT = /^(lists|sections|authors|labels)(\/|$)/;

// a diff of two versions is a read of the entry (its hidden fields are left out by the route, asking `hiddenFields`)
const ENTRY = /^entries\/([^/]+)(?:\/(publish|unpublish|archive|schedule|preview-link|versions\/[^/]+\/restore|versions\/[^/]+\/diff\/[^/]+))?$/;

interface EntrySubject {
  model: string;
  createdBy: string | null;
}

/** The model of an entry and who created it (the first version's author), or null when there is none. */
async function entrySubject(db: Queryable, orgId: string, id: string): Promise<EntrySubject | null> {
  const { rows } = await db.query<{ model_alias: string; created_by: string | null }>(
    `SELECT e.model_alias,
            (SELECT v.saved_by FROM entry_versions v WHERE v.org_id = e.org_id AND v.entry_id = e.id ORDER BY v.saved_at, v.version_id LIMIT 1) AS created_by
     FROM entries e WHERE e.org_id = $1 AND e.id = $2 AND e.in_preview LIMIT 1`,
    [orgId, id],
  );
  return rows[0] ? { model: rows[0].model_alias, createdBy: rows[0].created_by } : null;
}

/** The model and creator of each entry of `ids` that exists (the route answers for the others). */
async function entrySubjects(db: Queryable, orgId: string, ids: string[]): Promise<Array<EntrySubject & { id: string }>> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string; model_alias: string; created_by: string | null }>(
    `SELECT e.id, e.model_alias,
            (SELECT v.saved_by FROM entry_versions v WHERE v.org_id = e.org_id AND v.entry_id = e.id ORDER BY v.saved_at, v.version_id LIMIT 1) AS created_by
     FROM entries e WHERE e.org_id = $1 AND e.id = ANY($2::text[]) AND e.in_preview`,
    [orgId, ids],
  );
  return rows.map((r) => ({ id: r.id, model: r.model_alias, createdBy: r.created_by }));
}

/** The entries a release holds. */
async function releaseEntryIds(db: Queryable, orgId: string, releaseId: string): Promise<string[]> {
  const { rows } = await db.query<{ entry_id: string }>('SELECT entry_id FROM release_entries WHERE org_id = $1 AND release_id = $2', [orgId, releaseId]);
  return rows.map((r) => r.entry_id);
}

const RELEASE = /^releases(?:\/([^/]+)(?:\/(entries|publish|unpublish|cancel))?)?$/;

/**
 * A release is read by whoever reads entries of some model; every change to one — creating it, adding entries,
 * running, scheduling, cancelling or deleting it — needs publish rights on the model of each
 * entry it holds and of each entry the body adds (a 403 names the entries refused).
 */
async function authorizeRelease(db: Queryable, orgId: string, actor: PolicyActor, req: PolicyRequest, rest: string): Promise<void> {
  if (!WRITE(req.method)) {
    // a release answers entry ids and versions only: a role reading any model's entries reads it
    if (Object.values(rulesOf(actor).models).some((rules) => rules.read)) return;
    return authorize(actor, { kind: 'entry', action: 'read', model: '*' });
  }
  const m = RELEASE.exec(rest);
  if (!m) return;
  const named = (req.body as { entries?: unknown } | null)?.entries;
  const added = Array.isArray(named) ? named.filter((e): e is string => typeof e === 'string').slice(0, 1000) : [];
  const held = m[1] ? await releaseEntryIds(db, orgId, decodeURIComponent(m[1])) : [];
  authorizeEntries(actor, 'publish', await entrySubjects(db, orgId, [...new Set([...held, ...added])]));
}

async function defaultLocale(db: Queryable, orgId: string): Promise<string> {
  const { rows } = await db.query<{ code: string }>('SELECT code FROM locales WHERE org_id = $1 AND is_default', [orgId]);
  return rows[0]?.code ?? 'default';
}

type EntryBody = { model?: unknown; fields?: Record<string, unknown>; locales?: Record<string, Record<string, unknown> | null> };
const entryBody = (body: unknown): EntryBody => (body && typeof body === 'object' ? (body as EntryBody) : {});

const namesWatermark = (body: unknown) => !!body && typeof body === 'object' && 'imageWatermark' in body;

/**
 * Deleting the organization: an owner signed in with a session. No API token (whatever its
 * scope), no admin and no personal access token: one leaked credential must not end it all.
 */
export function authorizeOrganizationDeletion(caller: { member?: { role: string; credential: string } }): void {
  if (!caller.member) throw forbidden('Only an owner, signed in to the Studio or with POST /auth/sign-in, may delete the organization; API tokens may not.');
  if (caller.member.role !== 'owner') throw forbidden('Only an owner may delete the organization.');
  if (caller.member.credential !== 'session') throw forbidden('Deleting the organization needs a signed-in session, not a personal access token.');
}

/** Refuses (403) what the actor's role does not allow; resolves when it may go on. */
export async function authorizeRequest(db: Queryable, orgId: string, actor: PolicyActor, req: PolicyRequest): Promise<void> {
  if (!actor.rules) return;
  const rest = req.path.replace(/^\/management\/v1\/?/, '');
  const write = WRITE(req.method);
  // the organization's name, slug and usage: any member reads them; its one write (DELETE) is
  // decided by authorizeOrganizationDeletion, which needs the role's name and the credential
  if (rest === 'organization') return;
  for (const [pattern, area] of AREA_ALWAYS) if (pattern.test(rest)) return authorize(actor, { kind: 'settings', area });
  if (write && rest === 'delivery-settings' && namesWatermark(req.body)) {
    // A watermark is drawn over every image of the organization: setting it is editing assets too.
    authorize(actor, { kind: 'settings', area: 'models' });
    return authorize(actor, { kind: 'asset', action: 'edit' });
  }
  for (const [pattern, area] of AREA_WRITES) if (pattern.test(rest)) return write ? authorize(actor, { kind: 'settings', area }) : undefined;
  if (/^assets(\/|$)/.test(rest) || /^image-presets(\/|$)/.test(rest)) {
    if (!write) return;
    const action = req.method === 'DELETE' ? 'delete' : req.method === 'POST' || rest.endsWith('/content') ? 'upload' : 'edit';
    return authorize(actor, { kind: 'asset', action });
  }
  if (CONTENT.test(rest)) return write ? authorize(actor, { kind: 'entry', action: 'update', model: '*' }) : undefined;
  if (rest === 'export') {
    const rules = rulesOf(actor);
    if (Object.values(rules.models).some((m) => m.hiddenFields.length > 0)) throw forbidden('Your role hides fields: an export would show them, so it is refused.');
    return authorize(actor, { kind: 'entry', action: 'read', model: '*' });
  }
  if (rest === 'import') {
    for (const action of ['create', 'update', 'publish'] as const) authorize(actor, { kind: 'entry', action, model: '*' });
    if (rulesOf(actor).locales !== null) throw forbidden('Your role may write only some locales: import is refused.');
    return;
  }
  if (rest === 'entries') {
    if (!write) return;
    const body = entryBody(req.body);
    if (typeof body.model !== 'string') return; // the route answers 400
    authorize(actor, { kind: 'entry', action: 'create', model: body.model });
    return authorizeFieldWrite(actor, body.model, { fields: body.fields, locales: body.locales, defaultLocale: await defaultLocale(db, orgId) });
  }
  const entry = ENTRY.exec(rest);
  if (entry) {
    const subject = await entrySubject(db, orgId, decodeURIComponent(entry[1]));
    if (!subject) {
      // a PUT may create the entry: then the body's model decides
      const body = entryBody(req.body);
      if (req.method === 'PUT' && !entry[2] && typeof body.model === 'string') {
        authorize(actor, { kind: 'entry', action: 'create', model: body.model });
        return authorizeFieldWrite(actor, body.model, { fields: body.fields, locales: body.locales, defaultLocale: await defaultLocale(db, orgId) });
      }
      return; // the route answers 404
    }
    const step = entry[2];
    if (step === 'preview-link') return authorizePreviewLink(actor, subject.model);
    if (!write) return authorize(actor, { kind: 'entry', action: 'read', model: subject.model });
    const action = req.method === 'DELETE' ? 'delete' : step === undefined || step.startsWith('versions/') ? 'update' : 'publish';
    authorize(actor, { kind: 'entry', action, model: subject.model, createdBy: subject.createdBy });
    if (action === 'update' && step === undefined) {
      const body = entryBody(req.body);
      authorizeFieldWrite(actor, subject.model, { fields: body.fields, locales: body.locales, defaultLocale: await defaultLocale(db, orgId) });
    }
    return;
  }
  if (/^entries(\/|$)/.test(rest)) return;
  if (/^releases(\/|$)/.test(rest)) return authorizeRelease(db, orgId, actor, req, rest);
  // Anything else that writes needs every settings area (an owner's or admin's).
  if (write) for (const area of ['models', 'tokens', 'webhooks', 'members'] as const) authorize(actor, { kind: 'settings', area });
}

/** Whether entries of `model` are readable by the actor. */
export const canRead = (actor: PolicyActor, model: string): boolean => can(actor, { kind: 'entry', action: 'read', model });

/** Whether the actor's answers need shaping (hidden fields, unreadable models). */
export function shapesReads(actor: PolicyActor): boolean {
  if (!actor.rules) return false;
  return Object.values(actor.rules.models).some((m) => m.hiddenFields.length > 0 || !m.read) || modelRules(actor.rules, '*') === null;
}
