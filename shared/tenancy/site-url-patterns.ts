import { listModels } from '../content/model-repository.js';
import { badRequest, notFound } from '../errors/index.js';
import type { Services } from '../services.js';
import { listDistributionIds } from './project-repository.js';
import { findSiteUrlPatterns, updateSiteUrlPatterns, type SiteUrlPatterns } from './site-repository.js';

/** A site's URL patterns and the distributions serving it, or 404. */
export async function getSiteUrlPatterns(deps: Pick<Services, 'db'>, orgId: string, siteId: string): Promise<SiteUrlPatterns> {
  const found = await findSiteUrlPatterns(deps.db, orgId, siteId);
  if (!found) throw notFound('Site');
  return found;
}

/**
 * Replaces a site's URL patterns (shape already checked by siteUrlPatternsInputSchema): every
 * model and distribution they name must be the organization's (400 listing each one that is not),
 * the site must exist (404). Lines accepted from then on are resolved by them — at once on this
 * instance, within 30 s on others.
 */
export async function putSiteUrlPatterns(
  deps: Pick<Services, 'db' | 'entryResolver'>,
  orgId: string,
  siteId: string,
  input: SiteUrlPatterns,
): Promise<SiteUrlPatterns> {
  const [models, distributions] = await Promise.all([listModels(deps.db, orgId), listDistributionIds(deps.db, orgId)]);
  const problems = [
    ...input.patterns.flatMap((p, i) => (p.model && !models.some((m) => m.alias === p.model) ? [`patterns[${i}].model: no model "${p.model}"`] : [])),
    ...input.distributionIds.flatMap((d, i) => (distributions.has(d) ? [] : [`distributionIds[${i}]: no distribution "${d}"`])),
  ];
  if (problems.length > 0) throw badRequest('The URL patterns name what does not exist.', problems);
  const value = { patterns: input.patterns, distributionIds: [...new Set(input.distributionIds)] };
  if (!(await updateSiteUrlPatterns(deps.db, orgId, siteId, value))) throw notFound('Site');
  deps.entryResolver.forget(orgId);
  return value;
}
