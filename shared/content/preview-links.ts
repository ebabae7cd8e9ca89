import { z } from 'zod';
import { unprocessable } from '../errors/index.js';
import { createToken } from '../tenancy/token-repository.js';
import type { ContentDeps } from './deps.js';
import { getEntry } from './entries.js';
import { requireModel } from './models.js';
import { fillPreviewUrl } from './preview-url.js';

/** Body of `POST /management/v1/entries/:id/preview-link` (optional). */
export const previewLinkInputSchema = z.strictObject({
  /** How long the link's token reads drafts: a minute to a day, an hour by default. */
  expiresInSeconds: z.number().int().min(60).max(86_400).optional(),
});
export type PreviewLinkInput = z.infer<typeof previewLinkInputSchema>;

export interface PreviewLink {
  url: string;
  token: string;
  tokenId: string;
  expiresAt: string;
}

const DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * A link to the entry's draft on the site: the model's preview URL filled with the entry's
 * values and a new API token of the `preview` scope only, expiring soon. It is an ordinary token
 * (listed, revocable, refused at its expiry to the millisecond): it reads drafts of this
 * organization through GraphQL and nothing else — no management route admits the scope.
 */
export async function createPreviewLink(deps: Pick<ContentDeps, 'db'>, orgId: string, entryId: string, input: PreviewLinkInput): Promise<PreviewLink> {
  const entry = await getEntry(deps, orgId, entryId);
  const model = await requireModel(deps, orgId, entry.model);
  if (!model.previewUrl) throw unprocessable(`Model "${model.alias}" has no previewUrl: set one with PUT /management/v1/models/${model.alias} to make preview links.`);
  const expiresAt = new Date(Date.now() + (input.expiresInSeconds ?? DEFAULT_LIFETIME_SECONDS) * 1000);
  const token = await createToken(deps.db, orgId, { name: `preview link: entry ${entry.id}`, scopes: ['preview'], expiresAt });
  return { url: fillPreviewUrl(model.previewUrl, entry, token.token), token: token.token, tokenId: token.id, expiresAt: expiresAt.toISOString() };
}
