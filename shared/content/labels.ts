import { z } from 'zod';
import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';
import { clientIdSchema } from './entry-input.js';
import { siteProblems, type ResourceDef } from './resources.js';

export const labelPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  color: z.string().max(50).nullable().optional(),
  siteId: z.string().min(1).max(128).nullable().optional(),
  externalId: z.string().max(500).nullable().optional(),
});
export const labelInputSchema = labelPatchSchema.extend({ id: clientIdSchema.optional(), name: z.string().trim().min(1).max(200) });

async function labelInUse(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM entries WHERE org_id = $1 AND $2 = ANY(labels) AND status <> 'DELETED' LIMIT 1`, [orgId, id]);
  return rows.length > 0;
}

export const labelDef: ResourceDef = {
  name: 'Label',
  spec: {
    table: 'labels',
    columns: { name: 'name', description: 'description', color: 'color', siteId: 'site_id', externalId: 'external_id' },
    hasUpdatedAt: false,
    orderBy: 'lower(name), id',
  },
  check: (tx, orgId, _id, values) => siteProblems(tx, orgId, values),
  async beforeDelete(tx, orgId, id) {
    if (await labelInUse(tx, orgId, id)) throw conflict(`Label "${id}" is used by entries.`);
  },
};
