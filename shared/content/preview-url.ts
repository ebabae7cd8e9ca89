import type { FieldDefinition } from './model-types.js';

// A model's preview URL template: an absolute http(s) URL with placeholders in braces. `{token}`
// (required: the site reads drafts with it) is the preview token; `{id}`, `{model}` and `{slug}`
// are the entry's; any other name is a field alias of the model, filled with the entry's value in
// the default locale. Every value is URL-encoded, so a value cannot add a path, a query or a host.

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const SYSTEM = ['token', 'id', 'model', 'slug'] as const;
/** Field types whose value is one string, number or boolean (a placeholder can hold it). */
const SCALAR_TYPES = new Set(['text', 'number', 'datetime', 'boolean', 'url', 'tag', 'reference', 'media', 'author', 'section']);

/** What is wrong with a template for a model of `fields`, or an empty list. */
export function previewUrlProblems(template: string, fields: readonly FieldDefinition[]): string[] {
  const problems: string[] = [];
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
  for (const name of new Set(names)) {
    if ((SYSTEM as readonly string[]).includes(name)) continue;
    const field = fields.find((f) => f.alias === name);
    if (!field) problems.push(`previewUrl: unknown placeholder "{${name}}" (use {token}, {id}, {model}, {slug} or a field alias of the model)`);
    else if (!SCALAR_TYPES.has(field.type) || field.valueType !== 'single') problems.push(`previewUrl: placeholder "{${name}}" names a field whose value is not one text, number or id`);
  }
  if (!names.includes('token')) problems.push('previewUrl: must hold the placeholder "{token}" (the site reads drafts with it)');
  const filled = template.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(filled)) problems.push('previewUrl: a brace that is not part of a "{name}" placeholder');
  else if (!isHttpUrl(filled)) problems.push('previewUrl: must be an absolute http or https URL');
  return problems;
}

function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The template filled for one entry: system values, then its fields' values, URL-encoded. */
export function fillPreviewUrl(
  template: string,
  entry: { id: string; model: string; slug: string | null; fields: Record<string, unknown> },
  token: string,
): string {
  const system: Record<(typeof SYSTEM)[number], string> = { token, id: entry.id, model: entry.model, slug: entry.slug ?? '' };
  return template.replace(PLACEHOLDER, (_all, name: string) => {
    const value = name in system ? system[name as keyof typeof system] : entry.fields[name];
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? encodeURIComponent(String(value)) : '';
  });
}
