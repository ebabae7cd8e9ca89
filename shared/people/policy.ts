import { forbidden } from '../errors/index.js';
import type { Scope } from '../tenancy/scopes.js';
import { ASSET_ACTIONS, BUILT_IN_RULES, MODEL_ACTIONS, type AssetAction, type ModelAction, type ModelRules, type RoleRules, type SettingsArea } from './roles.js';

// The one policy: `can(actor, action, subject)` for every door (REST, GraphQL preview, import,
// export, the CLI — which speaks REST). The repository layer still scopes every query by
// organization; the policy only narrows within it.
//
// An API token's scopes are built-in roles: `manage` acts as admin, so every existing token keeps
// doing what it did; a member acts under the rules of their membership's role.

/** Who acts: a token (by its scopes) or a member (by their role's rules). */
export interface PolicyActor {
  scopes: readonly Scope[];
  /** A member's role; absent for API tokens. */
  rules?: RoleRules;
  /** The member's id, for "own entries only". */
  memberId?: string;
}

export type Subject =
  | { kind: 'entry'; action: ModelAction; model: string; /** Who created the entry (member id), for ownEntriesOnly. */ createdBy?: string | null }
  | { kind: 'asset'; action: AssetAction }
  | { kind: 'settings'; area: SettingsArea }
  | { kind: 'locale'; locale: string };

const NOTHING: RoleRules = BUILT_IN_RULES.analyst;

/** The rules an actor acts under. */
export function rulesOf(actor: PolicyActor): RoleRules {
  if (actor.rules) return actor.rules;
  if (actor.scopes.includes('manage')) return BUILT_IN_RULES.admin;
  if (actor.scopes.includes('preview')) return BUILT_IN_RULES.viewer;
  return NOTHING;
}

/** The rules of one model: its own entry, else `*`, else nothing. */
export function modelRules(rules: RoleRules, model: string): ModelRules | null {
  return rules.models[model] ?? rules.models['*'] ?? null;
}

export function can(actor: PolicyActor, subject: Subject): boolean {
  const rules = rulesOf(actor);
  switch (subject.kind) {
    case 'entry': {
      const m = modelRules(rules, subject.model);
      if (!m || !m[subject.action]) return false;
      if (m.ownEntriesOnly && subject.action !== 'read' && subject.action !== 'create') {
        return actor.memberId !== undefined && subject.createdBy === actor.memberId;
      }
      return true;
    }
    case 'asset':
      return rules.assets[subject.action];
    case 'settings':
      return rules.settings.includes(subject.area);
    case 'locale':
      return rules.locales === null || rules.locales.includes(subject.locale);
  }
}

const describe = (s: Subject): string => {
  switch (s.kind) {
    case 'entry':
      return `${s.action} entries of the model "${s.model}"`;
    case 'asset':
      return `${s.action} assets`;
    case 'settings':
      return `change ${s.area}`;
    case 'locale':
      return `write the locale "${s.locale}"`;
  }
};

/** `can`, or the 403 saying what the role may not do. */
export function authorize(actor: PolicyActor, subject: Subject): void {
  if (can(actor, subject)) return;
  const ownOnly = subject.kind === 'entry' && modelRules(rulesOf(actor), subject.model)?.[subject.action] === true;
  throw forbidden(`Your role may not ${describe(subject)}${ownOnly ? ' other than its own' : ''}.`);
}

/**
 * A preview link issues a token of the `preview` scope, which reads every model's drafts with every
 * field: only an actor who may read all of that (and the entry's model) may make one, so a link
 * never reaches further than its maker.
 */
export function authorizePreviewLink(actor: PolicyActor, model: string): void {
  authorize(actor, { kind: 'entry', action: 'read', model });
  authorize(actor, { kind: 'entry', action: 'read', model: '*' });
  if (Object.values(rulesOf(actor).models).some((m) => m.hiddenFields.length > 0 || !m.read)) {
    throw forbidden('Your role does not read every field of every model: a preview token would, so a preview link is refused.');
  }
}

/** Fields of `model` this actor never sees. */
export function hiddenFields(actor: PolicyActor, model: string): readonly string[] {
  if (!actor.rules) return [];
  return modelRules(actor.rules, model)?.hiddenFields ?? [];
}

/**
 * Refuses a write of `fields` (default locale) and `locales` (other locales) that touches a field
 * hidden or read-only to the actor, or a locale the role may not write.
 */
export function authorizeFieldWrite(
  actor: PolicyActor,
  model: string,
  write: { fields?: Record<string, unknown>; locales?: Record<string, Record<string, unknown> | null>; defaultLocale: string },
): void {
  if (!actor.rules) return;
  const m = modelRules(actor.rules, model);
  const locked = new Set([...(m?.hiddenFields ?? []), ...(m?.readOnlyFields ?? [])]);
  const touched = [...Object.keys(write.fields ?? {}), ...Object.values(write.locales ?? {}).flatMap((v) => Object.keys(v ?? {}))];
  const refused = [...new Set(touched.filter((f) => locked.has(f)))];
  if (refused.length > 0) throw forbidden(`Your role may not write the field(s) ${refused.map((f) => `"${f}"`).join(', ')} of the model "${model}".`);
  if (write.fields && Object.keys(write.fields).length > 0) authorize(actor, { kind: 'locale', locale: write.defaultLocale });
  for (const locale of Object.keys(write.locales ?? {})) authorize(actor, { kind: 'locale', locale });
}

/** A copy of an entry's `fields` (and `locales` values) without the fields hidden from the actor. */
export function withoutHidden<T extends { model?: string; fields?: Record<string, unknown>; locales?: Record<string, Record<string, unknown> | null> }>(actor: PolicyActor, entry: T): T {
  if (!actor.rules || entry.model === undefined) return entry;
  const hidden = hiddenFields(actor, entry.model);
  if (hidden.length === 0) return entry;
  const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !hidden.includes(k)));
  return {
    ...entry,
    ...(entry.fields ? { fields: strip(entry.fields) } : {}),
    ...(entry.locales ? { locales: Object.fromEntries(Object.entries(entry.locales).map(([l, v]) => [l, v ? strip(v) : v])) } : {}),
  };
}

/** The policy's view of an authenticated caller (a token by its scopes or role, or a member). */
export function policyActorOf(identity: { scopes: readonly Scope[]; tokenId?: string; member?: { id: string; rules: RoleRules }; rules?: RoleRules }): PolicyActor {
  if (identity.member) return { scopes: identity.scopes, rules: identity.member.rules, memberId: identity.member.id };
  // a token with a role: "own entries" are those the token saved (versions name it)
  if (identity.rules) return { scopes: identity.scopes, rules: identity.rules, memberId: identity.tokenId };
  return { scopes: identity.scopes };
}

/** Whether the policy narrows this caller (a member, or a token with a role) beyond its scopes. */
export const hasRole = (identity: { member?: unknown; rules?: unknown }): boolean => identity.member !== undefined || identity.rules !== undefined;

/**
 * Whether `candidate` allows nothing `own` does not: every settings area, asset action, locale
 * and model action of it is `own`'s too, and nothing `own` hides or keeps read-only is visible or
 * writable in it. A member or a role token gives a new token no more than it has.
 */
export function rulesWithin(candidate: RoleRules, own: RoleRules): boolean {
  if (!candidate.settings.every((a) => own.settings.includes(a))) return false;
  if (ASSET_ACTIONS.some((a) => candidate.assets[a] && !own.assets[a])) return false;
  if (own.locales !== null && (candidate.locales === null || !candidate.locales.every((l) => own.locales!.includes(l)))) return false;
  for (const model of new Set(['*', ...Object.keys(candidate.models), ...Object.keys(own.models)])) {
    const c = modelRules(candidate, model);
    if (!c) continue;
    const o = modelRules(own, model);
    if (MODEL_ACTIONS.some((a) => c[a] && !o?.[a])) return false;
    if (!o) continue;
    const writes = c.update || c.publish || c.delete;
    if (o.ownEntriesOnly && writes && !c.ownEntriesOnly) return false;
    if (!o.hiddenFields.every((f) => c.hiddenFields.includes(f))) return false;
    if (!o.readOnlyFields.every((f) => c.readOnlyFields.includes(f) || c.hiddenFields.includes(f))) return false;
  }
  return true;
}

/**
 * Owners are changed by owners only: a member who is not an owner may neither remove an owner nor
 * give or take the owner role. API tokens with the manage scope act as admins of the organization
 * and are the way back in when no owner is left, so they are not narrowed here.
 */
export function authorizeOwnerChange(actor: { member?: { role: string } }, target: { role: string }, verb: string): void {
  if (actor.member && actor.member.role !== 'owner' && target.role === 'owner') throw forbidden(`Only an owner may ${verb} an owner.`);
}

/**
 * `action` on every one of several entries (a release's), or one 403 naming each entry refused
 * and its model, so the caller sees at once what to take out or whom to ask.
 */
export function authorizeEntries(actor: PolicyActor, action: ModelAction, entries: ReadonlyArray<{ id: string; model: string; createdBy: string | null }>): void {
  const refused = entries.filter((e) => !can(actor, { kind: 'entry', action, model: e.model, createdBy: e.createdBy }));
  if (refused.length === 0) return;
  const shown = refused.slice(0, 20).map((e) => `"${e.id}" (model "${e.model}")`);
  const more = refused.length > shown.length ? ` and ${refused.length - shown.length} more` : '';
  throw forbidden(`Your role may not ${action} the entries ${shown.join(', ')}${more}.`);
}
