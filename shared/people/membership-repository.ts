import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound, unprocessable } from '../errors/index.js';
import { newId } from '../ids.js';
import { BUILT_IN_RULES, isBuiltInRole, type RoleRules } from './roles.js';

/** People, their memberships and the organizations' custom roles. Every query names its org. */

export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: string;
  source: string;
  createdAt: Date;
}

interface MemberRow {
  id: string;
  email: string;
  name: string | null;
  role: string;
  source: string;
  created_at: Date;
}

const toMember = (r: MemberRow): Member => ({ id: r.id, email: r.email, name: r.name, role: r.role, source: r.source, createdAt: r.created_at });

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export async function findPersonByEmail(db: Queryable, email: string): Promise<{ id: string; email: string; passwordHash: string | null } | null> {
  const { rows } = await db.query<{ id: string; email: string; password_hash: string | null }>(
    'SELECT id, email, password_hash FROM people WHERE lower(email) = $1',
    [normalizeEmail(email)],
  );
  return rows[0] ? { id: rows[0].id, email: rows[0].email, passwordHash: rows[0].password_hash } : null;
}

/** The person of `email`, created (without a password) when there is none yet. */
export async function ensurePerson(tx: Queryable, email: string): Promise<{ id: string; email: string; passwordHash: string | null }> {
  await tx.query('INSERT INTO people (id, email) VALUES ($1, $2) ON CONFLICT DO NOTHING', [newId(), normalizeEmail(email)]);
  const person = await findPersonByEmail(tx, email);
  if (!person) throw new Error('person vanished after insert');
  return person;
}

export async function setPassword(tx: Queryable, personId: string, passwordHash: string): Promise<void> {
  await tx.query('UPDATE people SET password_hash = $2, failed_sign_ins = 0, failed_since = NULL WHERE id = $1', [personId, passwordHash]);
}

/** Adds the membership; an existing one keeps its role. */
export async function addMembership(tx: Queryable, orgId: string, personId: string, role: string, source: string): Promise<void> {
  await tx.query('INSERT INTO memberships (org_id, person_id, role, source) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [orgId, personId, role, source]);
}

export async function listMembers(db: Queryable, orgId: string, page: { offset: number; limit: number }): Promise<{ items: Member[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<MemberRow>(
      `SELECT p.id, p.email, p.name, m.role, m.source, m.created_at FROM memberships m JOIN people p ON p.id = m.person_id
       WHERE m.org_id = $1 ORDER BY m.created_at, p.id LIMIT $2 OFFSET $3`,
      [orgId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toMember), total: total.rows[0].n };
}

export async function getMember(db: Queryable, orgId: string, personId: string): Promise<Member> {
  const { rows } = await db.query<MemberRow>(
    `SELECT p.id, p.email, p.name, m.role, m.source, m.created_at FROM memberships m JOIN people p ON p.id = m.person_id
     WHERE m.org_id = $1 AND m.person_id = $2`,
    [orgId, personId],
  );
  if (!rows[0]) throw notFound('Member');
  return toMember(rows[0]);
}

export async function setMemberRole(tx: Queryable, orgId: string, personId: string, role: string): Promise<{ before: string; member: Member }> {
  const before = await getMember(tx, orgId, personId);
  await tx.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND person_id = $2', [orgId, personId, role]);
  return { before: before.role, member: { ...before, role } };
}

export interface CustomRole {
  id: string;
  name: string;
  rules: RoleRules;
  createdAt: Date;
}

/** A role name as given (`editor`, or a custom role's id or name) → its stored form, or 422. */
export async function resolveRole(db: Queryable, orgId: string, role: string): Promise<string> {
  if (isBuiltInRole(role)) return role;
  const id = role.startsWith('custom:') ? role.slice('custom:'.length) : role;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM roles WHERE org_id = $1 AND (id = $2 OR name = $2)', [orgId, id]);
  if (!rows[0]) throw unprocessable(`Unknown role "${role}": a built-in role (owner, admin, developer, editor, author, viewer, analyst) or a custom role of this organization.`);
  return `custom:${rows[0].id}`;
}

/** The rules of a stored role (null when a custom role was deleted: no rights). */
export async function rulesOfRole(db: Queryable, orgId: string, role: string): Promise<RoleRules | null> {
  if (isBuiltInRole(role)) return BUILT_IN_RULES[role];
  if (!role.startsWith('custom:')) return null;
  const { rows } = await db.query<{ rules: RoleRules }>('SELECT rules FROM roles WHERE org_id = $1 AND id = $2', [orgId, role.slice('custom:'.length)]);
  return rows[0]?.rules ?? null;
}

export async function listRoles(db: Queryable, orgId: string): Promise<CustomRole[]> {
  const { rows } = await db.query<{ id: string; name: string; rules: RoleRules; created_at: Date }>(
    'SELECT id, name, rules, created_at FROM roles WHERE org_id = $1 ORDER BY created_at, id',
    [orgId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, rules: r.rules, createdAt: r.created_at }));
}

export async function createRole(tx: Queryable, orgId: string, input: { name: string; rules: RoleRules }): Promise<CustomRole> {
  if (isBuiltInRole(input.name)) throw unprocessable(`"${input.name}" is a built-in role.`);
  const { rows } = await tx.query<{ id: string; name: string; rules: RoleRules; created_at: Date }>(
    `INSERT INTO roles (org_id, id, name, rules) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, name) DO NOTHING RETURNING id, name, rules, created_at`,
    [orgId, newId(), input.name, JSON.stringify(input.rules)],
  );
  if (!rows[0]) throw conflict(`A role named "${input.name}" exists already.`);
  return { id: rows[0].id, name: rows[0].name, rules: rows[0].rules, createdAt: rows[0].created_at };
}
