import { createDb } from '../shared/adapters/db/index.js';
import { migratePostgres } from '../shared/adapters/db/migrate.js';
import { loadConfig } from '../shared/config.js';
import { AppError } from '../shared/errors/index.js';
import { createOrganizationWithToken } from '../shared/tenancy/create-organization.js';
import { organizationInputSchema } from '../shared/tenancy/tenancy-input.js';

/**
 * `folio create-organization`: a production deployment's first run. Without PLATFORM_ADMIN_TOKEN
 * the admin API is closed, so the first organization is made here, in the API's container,
 * straight in the database DATABASE_URL names (migrated first, as the API would). Prints the
 * organization and its manage token. Exit code: 0 created, 1 refused (a taken slug), 2 usage.
 */
export async function runCreateOrganizationCommand(options: { name?: string; slug?: string }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    err.write('folio: create-organization needs DATABASE_URL (the Postgres the API uses); the embedded mode has data/admin-token for POST /admin/v1/organizations\n');
    return 2;
  }
  const input = organizationInputSchema.safeParse({ name: options.name, slug: options.slug });
  if (!input.success) {
    err.write(`folio: create-organization --name NAME --slug SLUG: ${input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n`);
    return 2;
  }
  const db = await createDb({ ...config, databasePoolSize: 1 });
  try {
    await migratePostgres(db);
    const created = await createOrganizationWithToken(db, input.data);
    out.write(
      [
        `Created organization "${created.name}" (slug ${created.slug}, id ${created.id}).`,
        'Its manage token (store it now: it is not shown again):',
        created.token,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    if (e instanceof AppError && e.status < 500) {
      err.write(`folio: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    await db.close();
  }
}
