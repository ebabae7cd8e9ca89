import { z } from 'zod';
import type { Scope } from '../tenancy/scopes.js';

/**
 * What a role allows. Built-in roles are constants here; custom roles are stored per organization
 * (`roles.rules`) in the same shape, so one policy reads both.
 */

export const MODEL_ACTIONS = ['read', 'create', 'update', 'publish', 'delete'] as const;
export type ModelAction = (typeof MODEL_ACTIONS)[number];
export const ASSET_ACTIONS = ['upload', 'edit', 'delete'] as const;
export type AssetAction = (typeof ASSET_ACTIONS)[number];
/** Settings areas: who may change models, tokens, webhooks, members (and roles), single sign-on, and read analytics. */
export const SETTINGS_AREAS = ['models', 'tokens', 'webhooks', 'members', 'analytics', 'sso'] as const;
export type SettingsArea = (typeof SETTINGS_AREAS)[number];

const fieldAlias = z.string().min(1).max(64);

export const modelRulesSchema = z.strictObject({
  read: z.boolean().default(false),
  create: z.boolean().default(false),
  update: z.boolean().default(false),
  publish: z.boolean().default(false),
  delete: z.boolean().default(false),
  /** update, publish and delete apply only to entries this member created. */
  ownEntriesOnly: z.boolean().default(false),
  /** Fields this role never sees (absent from REST and GraphQL answers) and cannot write. */
  hiddenFields: z.array(fieldAlias).max(200).default([]),
  /** Fields this role sees but cannot write. */
  readOnlyFields: z.array(fieldAlias).max(200).default([]),
});
export type ModelRules = z.output<typeof modelRulesSchema>;

export const roleRulesSchema = z.strictObject({
  /** Per model alias; `*` applies to every model not named. */
  models: z.record(z.string().min(1).max(64), modelRulesSchema).default({}),
  /** The locales whose values this role may write; null: every locale. */
  locales: z.array(z.string().min(1).max(40)).max(200).nullable().default(null),
  assets: z.strictObject({ upload: z.boolean().default(false), edit: z.boolean().default(false), delete: z.boolean().default(false) }).default({ upload: false, edit: false, delete: false }),
  settings: z.array(z.enum(SETTINGS_AREAS)).max(SETTINGS_AREAS.length).default([]),
});
export type RoleRules = z.output<typeof roleRulesSchema>;

export const customRoleInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  rules: roleRulesSchema,
});

export const BUILT_IN_ROLES = ['owner', 'admin', 'developer', 'editor', 'author', 'viewer', 'analyst'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];
export const isBuiltInRole = (s: string): s is BuiltInRole => (BUILT_IN_ROLES as readonly string[]).includes(s);

const models = (m: Partial<ModelRules>): Record<string, ModelRules> => ({
  '*': { read: false, create: false, update: false, publish: false, delete: false, ownEntriesOnly: false, hiddenFields: [], readOnlyFields: [], ...m },
});
const ALL_CONTENT = models({ read: true, create: true, update: true, publish: true, delete: true });
const ALL_ASSETS = { upload: true, edit: true, delete: true };
const NO_ASSETS = { upload: false, edit: false, delete: false };

/** No right at all: a membership whose custom role was deleted. */
export const NO_RIGHTS: RoleRules = { models: {}, locales: null, assets: NO_ASSETS, settings: [] };

/** The built-in roles' rules. Owner and admin differ only in that only an owner may make owners. */
export const BUILT_IN_RULES: Record<BuiltInRole, RoleRules> = {
  owner: { models: ALL_CONTENT, locales: null, assets: ALL_ASSETS, settings: [...SETTINGS_AREAS] },
  admin: { models: ALL_CONTENT, locales: null, assets: ALL_ASSETS, settings: [...SETTINGS_AREAS] },
  developer: { models: models({ read: true }), locales: null, assets: NO_ASSETS, settings: ['models', 'tokens', 'webhooks', 'analytics', 'sso'] },
  editor: { models: ALL_CONTENT, locales: null, assets: ALL_ASSETS, settings: [] },
  author: { models: models({ read: true, create: true, update: true }), locales: null, assets: { upload: true, edit: true, delete: false }, settings: [] },
  viewer: { models: models({ read: true }), locales: null, assets: NO_ASSETS, settings: [] },
  analyst: { models: models({}), locales: null, assets: NO_ASSETS, settings: ['analytics'] },
};

/**
 * The API doors a role opens (the scopes a token would need): every role but the analyst's works
 * on the management API and reads drafts through GraphQL preview; analytics for those with the
 * analytics area. The policy then decides each action within the door.
 */
export function scopesOfRules(rules: RoleRules): Scope[] {
  const content = Object.values(rules.models).some((m) => m.read) || rules.settings.some((a) => a !== 'analytics');
  const scopes: Scope[] = content ? ['manage', 'preview', 'delivery'] : [];
  if (rules.settings.includes('analytics')) scopes.push('analytics');
  return scopes;
}

/** A role as a membership stores it: a built-in name, or `custom:<id>`. */
export type RoleRef = BuiltInRole | `custom:${string}`;
