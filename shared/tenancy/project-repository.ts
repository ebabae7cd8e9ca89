import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound } from '../errors/index.js';
import { newUuid, randomBase62 } from '../ids.js';

export interface Project {
  id: string;
  name: string;
  createdAt: Date;
}

export interface Distribution {
  id: string;
  projectId: string;
  name: string;
  hostnames: string[];
  createdAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

interface ProjectRow {
  id: string;
  name: string;
  created_at: Date;
}
interface DistributionRow {
  id: string;
  project_id: string;
  name: string;
  hostnames: string[];
  created_at: Date;
}
const toProject = (r: ProjectRow): Project => ({ id: r.id, name: r.name, createdAt: r.created_at });
const toDistribution = (r: DistributionRow): Distribution => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  hostnames: r.hostnames,
  createdAt: r.created_at,
});

export async function insertProject(db: Queryable, orgId: string, input: { name: string }): Promise<Project> {
  const { rows } = await db.query<ProjectRow>(
    'INSERT INTO projects (org_id, id, name) VALUES ($1, $2, $3) RETURNING id, name, created_at',
    [orgId, newUuid(), input.name],
  );
  return toProject(rows[0]);
}

export async function listProjects(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<ProjectRow>(
      'SELECT id, name, created_at FROM projects WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3',
      [orgId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toProject), total: total.rows[0].n };
}

export async function findProject(db: Queryable, orgId: string, projectId: string): Promise<Project | null> {
  // A malformed id cannot exist: answer "not found" without asking Postgres to cast it.
  if (!isUuid(projectId)) return null;
  const { rows } = await db.query<ProjectRow>(
    'SELECT id, name, created_at FROM projects WHERE org_id = $1 AND id = $2',
    [orgId, projectId],
  );
  return rows[0] ? toProject(rows[0]) : null;
}

/** The project in this org, or 404 — ids of other organizations are indistinguishable from unknown ones. */
export async function requireProject(db: Queryable, orgId: string, projectId: string): Promise<Project> {
  const project = await findProject(db, orgId, projectId);
  if (!project) throw notFound('Project');
  return project;
}

export async function insertDistribution(
  db: Queryable,
  orgId: string,
  projectId: string,
  input: { id?: string; name: string; hostnames: string[] },
): Promise<Distribution> {
  await requireProject(db, orgId, projectId);
  const id = input.id ?? randomBase62(14);
  const { rows } = await db.query<DistributionRow>(
    `INSERT INTO distributions (org_id, id, project_id, name, hostnames) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id, id) DO NOTHING RETURNING id, project_id, name, hostnames, created_at`,
    [orgId, id, projectId, input.name, input.hostnames],
  );
  if (rows.length === 0) throw conflict(`A distribution with id "${id}" already exists.`);
  return toDistribution(rows[0]);
}

export async function listDistributions(db: Queryable, orgId: string, projectId: string): Promise<Distribution[]> {
  const { rows } = await db.query<DistributionRow>(
    `SELECT id, project_id, name, hostnames, created_at FROM distributions
     WHERE org_id = $1 AND project_id = $2 ORDER BY created_at, id`,
    [orgId, projectId],
  );
  return rows.map(toDistribution);
}

/**
 * The distribution in this org (and in the given project, when one is given), or 404.
 */
export async function requireDistribution(
  db: Queryable,
  orgId: string,
  projectId: string | null,
  distributionId: string,
): Promise<Distribution> {
  if (projectId !== null && !isUuid(projectId)) throw notFound('Project');
  const { rows } = await db.query<DistributionRow>(
    `SELECT id, project_id, name, hostnames, created_at FROM distributions
     WHERE org_id = $1 AND id = $2 AND ($3::uuid IS NULL OR project_id = $3::uuid)`,
    [orgId, distributionId, projectId],
  );
  if (!rows[0]) throw notFound(projectId !== null && !(await findProject(db, orgId, projectId)) ? 'Project' : 'Distribution');
  return toDistribution(rows[0]);
}

/** The ids of every distribution of the organization, in any project. */
export async function listDistributionIds(db: Queryable, orgId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM distributions WHERE org_id = $1', [orgId]);
  return new Set(rows.map((r) => r.id));
}

/** Every project of the organization with its distributions (oldest first), for choosing what to report on. */
export async function listProjectsWithDistributions(db: Queryable, orgId: string): Promise<Array<Project & { distributions: Distribution[] }>> {
  const [projects, distributions] = await Promise.all([
    db.query<ProjectRow>('SELECT id, name, created_at FROM projects WHERE org_id = $1 ORDER BY created_at, id', [orgId]),
    db.query<DistributionRow>('SELECT id, project_id, name, hostnames, created_at FROM distributions WHERE org_id = $1 ORDER BY created_at, id', [orgId]),
  ]);
  return projects.rows.map((p) => ({ ...toProject(p), distributions: distributions.rows.filter((d) => d.project_id === p.id).map(toDistribution) }));
}
