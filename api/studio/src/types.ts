// The shapes of the management API's answers the Studio reads (see the OpenAPI document).

export interface Membership {
  organizationId: string;
  slug: string;
  name: string;
  role: string;
}

export interface ModelRules {
  read: boolean;
  create: boolean;
  update: boolean;
  publish: boolean;
  delete: boolean;
  ownEntriesOnly: boolean;
  hiddenFields: string[];
  readOnlyFields: string[];
}

export interface Me {
  id: string;
  email: string;
  name: string | null;
  organization: { id: string; slug: string };
  role: string;
  rules: { models: Record<string, ModelRules>; settings: string[]; locales: string[] | null };
  memberships: Membership[];
}

export type FieldType = 'text' | 'number' | 'datetime' | 'boolean' | 'json' | 'location' | 'reference' | 'media' | 'richtext' | 'richcontent' | 'author' | 'tag' | 'section' | 'url';

export interface Field {
  alias: string;
  name?: string;
  type: FieldType;
  valueType: 'single' | 'list';
  numberFormat?: 'int' | 'decimal';
  allowedModels: string[];
  required: boolean;
  localized?: boolean;
}

export interface Model {
  alias: string;
  name: string;
  titleField: string | null;
  fields: Field[];
}

export const ENTRY_STATUSES = ['DRAFT', 'PUBLISHED', 'EDITED', 'UNPUBLISHED', 'SCHEDULED', 'ARCHIVED'] as const;

export interface Entry {
  id: string;
  model: string;
  siteId: string;
  status: string;
  versionId: string;
  publishedVersionId: string | null;
  title: string | null;
  slug: string | null;
  fields: Record<string, unknown>;
  updatedAt: string;
  publishedAt: string | null;
  scheduledAt: string | null;
}

export interface EntryVersion {
  versionId: string;
  savedAt: string;
  current: boolean;
  status: string;
  title: string | null;
  savedBy: { type: string; name: string | null } | null;
}

export interface Site {
  id: string;
  name: string;
}

/** The rules of `alias` in the member's role (the `*` rules when the model is not named). */
export function rulesOf(me: Me, alias: string): ModelRules | undefined {
  return me.rules.models[alias] ?? me.rules.models['*'];
}
