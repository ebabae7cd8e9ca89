import { randomUUID } from 'node:crypto';
import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import { isUuid } from '../tenancy/project-repository.js';
import type { FunnelInput, GoalInput } from './goal-input.js';

// Goals and funnels of a distribution (Postgres): the only statements naming their tables.

export interface Goal {
  id: string;
  name: string;
  path: string;
  createdAt: Date;
}

export interface Funnel {
  id: string;
  name: string;
  steps: string[];
  createdAt: Date;
}

/** At most this many of each per distribution: the goals report reads them all in one pass. */
export const MAX_PER_DISTRIBUTION = 50;

type Who = { orgId: string; distributionId: string };

/** The new goal; null when the distribution has its maximum already. */
export async function insertGoal(db: Queryable, who: Who, input: GoalInput): Promise<Goal | null> {
  const { rows } = await db.query<{ id: string; name: string; path_pattern: string; created_at: Date }>(
    `INSERT INTO analytics_goals (org_id, distribution_id, id, name, path_pattern)
     SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM analytics_goals WHERE org_id = $1 AND distribution_id = $2) < $6
     RETURNING id, name, path_pattern, created_at`,
    [who.orgId, who.distributionId, randomUUID(), input.name, input.path, MAX_PER_DISTRIBUTION],
  );
  const r = rows[0];
  return r ? { id: r.id, name: r.name, path: r.path_pattern, createdAt: r.created_at } : null;
}

export async function listGoals(db: Queryable, who: Who): Promise<Goal[]> {
  const { rows } = await db.query<{ id: string; name: string; path_pattern: string; created_at: Date }>(
    'SELECT id, name, path_pattern, created_at FROM analytics_goals WHERE org_id = $1 AND distribution_id = $2 ORDER BY created_at, id',
    [who.orgId, who.distributionId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, path: r.path_pattern, createdAt: r.created_at }));
}

export async function deleteGoal(db: Queryable, who: Who, id: string): Promise<void> {
  const { rowCount } = isUuid(id)
    ? await db.query('DELETE FROM analytics_goals WHERE org_id = $1 AND distribution_id = $2 AND id = $3', [who.orgId, who.distributionId, id])
    : { rowCount: 0 };
  if (!rowCount) throw notFound('Goal');
}

/** The new funnel; null when the distribution has its maximum already. */
export async function insertFunnel(db: Queryable, who: Who, input: FunnelInput): Promise<Funnel | null> {
  const { rows } = await db.query<{ id: string; name: string; steps: string[]; created_at: Date }>(
    `INSERT INTO analytics_funnels (org_id, distribution_id, id, name, steps)
     SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM analytics_funnels WHERE org_id = $1 AND distribution_id = $2) < $6
     RETURNING id, name, steps, created_at`,
    [who.orgId, who.distributionId, randomUUID(), input.name, input.steps, MAX_PER_DISTRIBUTION],
  );
  const r = rows[0];
  return r ? { id: r.id, name: r.name, steps: r.steps, createdAt: r.created_at } : null;
}

export async function listFunnels(db: Queryable, who: Who): Promise<Funnel[]> {
  const { rows } = await db.query<{ id: string; name: string; steps: string[]; created_at: Date }>(
    'SELECT id, name, steps, created_at FROM analytics_funnels WHERE org_id = $1 AND distribution_id = $2 ORDER BY created_at, id',
    [who.orgId, who.distributionId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, steps: r.steps, createdAt: r.created_at }));
}

/** The funnel of this distribution, or 404 (an id that is no UUID included). */
export async function requireFunnel(db: Queryable, who: Who, id: string): Promise<Funnel> {
  if (!isUuid(id)) throw notFound('Funnel');
  const { rows } = await db.query<{ id: string; name: string; steps: string[]; created_at: Date }>(
    'SELECT id, name, steps, created_at FROM analytics_funnels WHERE org_id = $1 AND distribution_id = $2 AND id = $3',
    [who.orgId, who.distributionId, id],
  );
  const r = rows[0];
  if (!r) throw notFound('Funnel');
  return { id: r.id, name: r.name, steps: r.steps, createdAt: r.created_at };
}

export async function deleteFunnel(db: Queryable, who: Who, id: string): Promise<void> {
  const { rowCount } = isUuid(id)
    ? await db.query('DELETE FROM analytics_funnels WHERE org_id = $1 AND distribution_id = $2 AND id = $3', [who.orgId, who.distributionId, id])
    : { rowCount: 0 };
  if (!rowCount) throw notFound('Funnel');
}
