import type { Db } from '../adapters/db/index.js';
import { insertOrganization } from './organization-repository.js';
import { createToken } from './token-repository.js';

export interface CreatedOrganization {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
  /** The first `manage` token, shown once. */
  token: string;
  tokenId: string;
}

/**
 * A new organization with its first `manage` token, in one transaction: what the admin API's
 * POST and the `create-organization` command (a production deployment's first run) both do.
 * A taken slug is the catalogue's 409.
 */
export async function createOrganizationWithToken(db: Db, input: { name: string; slug: string }): Promise<CreatedOrganization> {
  return db.transaction(async (tx) => {
    const org = await insertOrganization(tx, input);
    const token = await createToken(tx, org.id, { name: 'initial manage token', scopes: ['manage'] });
    return { id: org.id, slug: org.slug, name: org.name, createdAt: org.createdAt, token: token.token, tokenId: token.id };
  });
}
