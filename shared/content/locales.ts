import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound, unprocessable } from '../errors/index.js';
import type { ContentDeps } from './deps.js';
import type { LocaleInput, LocalePatch } from './locale-input.js';
import { anyLocaleValues, clearDefaultLocale, deleteLocaleRow, dropLocaleValues, findLocales, insertLocale, updateLocale } from './locale-repository.js';
import type { Locale } from './locale-types.js';
import { bumpContentVersion, bumpSchemaVersion, lockModels } from './org-versions.js';

export { findLocales };

type LocaleFields = Pick<Locale, 'code' | 'name' | 'default' | 'fallback'>;

/** Problems of a fallback: it must be another locale of the org, and following it must not come back. */
function fallbackProblems(all: readonly LocaleFields[], l: LocaleFields): string[] {
  if (l.fallback === null) return [];
  if (l.default) return ['fallback: the default locale has none (every chain ends in it)'];
  if (l.fallback === l.code) return ['fallback: a locale cannot fall back to itself'];
  const byCode = new Map(all.map((x) => [x.code, x]));
  byCode.set(l.code, l);
  if (!byCode.has(l.fallback)) return [`fallback: no locale "${l.fallback}" (known: ${[...byCode.keys()].filter((c) => c !== l.code).join(', ') || 'none'})`];
  const seen = new Set([l.code]);
  for (let at = byCode.get(l.fallback); at && at.fallback !== null; at = byCode.get(at.fallback)) {
    if (seen.has(at.code)) return [`fallback: "${l.fallback}" leads back to "${l.code}" (${[...seen, at.code].join(' → ')})`];
    seen.add(at.code);
  }
  return [];
}

/**
 * Changing which locale is the default relabels what every entry's `fields` hold; it is allowed
 * only while no entry holds values in another locale (then nothing is mislabelled but the default).
 */
async function takeDefault(tx: Queryable, orgId: string, code: string): Promise<void> {
  if (await anyLocaleValues(tx, orgId)) {
    throw conflict(`Entries hold values in other locales; the default locale's values are every entry's "fields", so "${code}" cannot become the default now.`);
  }
  await clearDefaultLocale(tx, orgId);
}

/** Runs a locale write with the org's schema writes serialized, then bumps both versions and tells every instance. */
async function localeWrite<T>(deps: ContentDeps, orgId: string, write: (tx: Queryable, all: Locale[]) => Promise<T>): Promise<T> {
  const { out, schemaVersion } = await deps.db.transaction(async (tx) => {
    await lockModels(tx, orgId);
    const out = await write(tx, await findLocales(tx, orgId));
    await bumpContentVersion(tx, orgId);
    return { out, schemaVersion: await bumpSchemaVersion(tx, orgId) };
  });
  await deps.bus.publish('schema-changed', { orgId, schemaVersion });
  return out;
}

async function reread(tx: Queryable, orgId: string, code: string): Promise<Locale> {
  return (await findLocales(tx, orgId)).find((l) => l.code === code)!;
}

export async function getLocale(deps: Pick<ContentDeps, 'db'>, orgId: string, code: string): Promise<Locale> {
  const found = (await findLocales(deps.db, orgId)).find((l) => l.code === code);
  if (!found) throw notFound(`Locale "${code}"`);
  return found;
}

/** Adds a locale; the first one of an organization is its default. */
export async function createLocale(deps: ContentDeps, orgId: string, input: LocaleInput): Promise<Locale> {
  return localeWrite(deps, orgId, async (tx, all) => {
    if (all.some((l) => l.code === input.code)) throw conflict(`Locale "${input.code}" exists.`);
    const l: LocaleFields = { code: input.code, name: input.name ?? input.code, default: all.length === 0 || input.default === true, fallback: input.fallback ?? null };
    const problems = fallbackProblems(all, l);
    if (problems.length > 0) throw unprocessable(`Locale "${input.code}" is invalid.`, problems);
    if (l.default && all.length > 0) await takeDefault(tx, orgId, l.code);
    await insertLocale(tx, orgId, l);
    return reread(tx, orgId, l.code);
  });
}

/**
 * The import's `locale` line: creates the locale or updates its name and fallback (and makes it
 * the default when the line says so and it is not), as `POST` and `PATCH` would.
 */
export async function putLocale(deps: ContentDeps, orgId: string, input: LocaleInput): Promise<{ locale: Locale; created: boolean }> {
  const exists = (await findLocales(deps.db, orgId)).some((l) => l.code === input.code);
  if (!exists) return { locale: await createLocale(deps, orgId, input), created: true };
  const patch: LocalePatch = { name: input.name, fallback: input.fallback, ...(input.default ? { default: true as const } : {}) };
  return { locale: await patchLocale(deps, orgId, input.code, patch), created: false };
}

export async function patchLocale(deps: ContentDeps, orgId: string, code: string, patch: LocalePatch): Promise<Locale> {
  return localeWrite(deps, orgId, async (tx, all) => {
    const current = all.find((l) => l.code === code);
    if (!current) throw notFound(`Locale "${code}"`);
    const becomesDefault = patch.default === true && !current.default;
    const l: LocaleFields = {
      code,
      name: patch.name ?? current.name,
      default: current.default || becomesDefault,
      fallback: becomesDefault ? null : patch.fallback !== undefined ? patch.fallback : current.fallback,
    };
    const problems = becomesDefault && patch.fallback ? ['fallback: the default locale has none (every chain ends in it)'] : fallbackProblems(all, l);
    if (problems.length > 0) throw unprocessable(`Locale "${code}" is invalid.`, problems);
    if (becomesDefault) await takeDefault(tx, orgId, code);
    await updateLocale(tx, orgId, l);
    return reread(tx, orgId, code);
  });
}

/**
 * Removes a locale and its values from every entry (kept versions keep theirs). The default goes
 * only when it is the last one; a locale another falls back to does not go.
 */
export async function deleteLocale(deps: ContentDeps, orgId: string, code: string): Promise<void> {
  await localeWrite(deps, orgId, async (tx, all) => {
    const current = all.find((l) => l.code === code);
    if (!current) throw notFound(`Locale "${code}"`);
    if (current.default && all.length > 1) throw conflict(`Locale "${code}" is the default; make another locale the default first (PATCH {"default": true}).`);
    const users = all.filter((l) => l.fallback === code).map((l) => l.code);
    if (users.length > 0) throw conflict(`Locale "${code}" is the fallback of ${users.join(', ')}.`);
    await deleteLocaleRow(tx, orgId, code);
    await dropLocaleValues(tx, orgId, code);
  });
}
