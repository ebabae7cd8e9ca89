import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';
import { siteProblems, type ResourceDef } from './resources.js';

async function labelInUse(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM entries WHERE org_id = $1 AND $2 = ANY(labels) AND status <> 'DELETED' LIMIT 1`, [orgId, id]);
  return rows.length > 0;
}

export const labelDef: ResourceDef = {
  name: 'Label',
  event: 'label.changed',
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
