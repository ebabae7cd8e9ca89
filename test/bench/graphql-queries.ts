import type { Run } from './sql-run.js';
import { SEARCH_GRAPHQL, searchSql } from './graphql-search.js';

/**
 * The queries of `bench:graphql`, as GraphQL and as hand-written SQL returning the same data
 * (the limit): Q1 a `title contains` page ordered by publishedAt with authors and total, Q2 one
 * entry with its author, Q3 a generic `entryCollection` with fragments, Q4 an author's reverse
 * relation page with total.
 */
const TERM = 'number 12';
const ONE = 'a4242';
const AUTHOR = 'au7';

export type QueryName = 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'Q5';

export const GRAPHQL: Record<QueryName, string> = {
  Q1: `{ articleCollection(limit: 20, where: {title: {contains: "${TERM}"}}, order: {system: {publishedAt: DESC}}) { total items { id title views author { id name } } } }`,
  Q2: `{ article(id: "${ONE}") { id title views author { id name } } }`,
  Q3: `{ entryCollection(limit: 20) { items { id system { modelAlias publishedAt } ... on Article { title views } ... on Author { name } } } }`,
  Q4: `{ author(id: "${AUTHOR}") { id name relations { articleCollection(limit: 20) { total items { id title } } } } }`,
  Q5: SEARCH_GRAPHQL,
};

export type { Run } from './sql-run.js';

export const SQL: Record<QueryName, (c: Run, orgId: string) => Promise<unknown>> = {
  async Q1(c, orgId) {
    const where = `org_id = $1 AND in_delivery AND model_alias = 'article' AND title ILIKE $2`;
    // Matches first (trigram index), then the top 20: the best plan for a substring search.
    const items = await c(
      `WITH m AS MATERIALIZED (SELECT id, title, published_at, fields->'views' AS views, fields->>'author' AS author FROM entries WHERE ${where})
       SELECT id, title, views, author FROM m ORDER BY published_at DESC NULLS LAST, id LIMIT 20`,
      [orgId, `%${TERM}%`],
    );
    const total = await c(`SELECT count(*) FROM entries WHERE ${where}`, [orgId, `%${TERM}%`]);
    const authors = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND in_delivery AND id = ANY($2)`, [orgId, items.rows.map((r) => r.author)]);
    return [items.rows, total.rows, authors.rows];
  },
  async Q2(c, orgId) {
    const a = await c(`SELECT id, title, fields->'views' AS views, fields->>'author' AS author FROM entries WHERE org_id = $1 AND id = $2 AND in_delivery`, [orgId, ONE]);
    const au = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND in_delivery AND id = ANY($2)`, [orgId, [a.rows[0].author]]);
    return [a.rows, au.rows];
  },
  async Q3(c, orgId) {
    // only the values the fragments show, as for Q1, Q2 and Q4 (not the whole `fields` document)
    const sql = `SELECT id, model_alias, published_at, title, fields->'views' AS views, fields->>'name' AS name
      FROM entries WHERE org_id = $1 AND in_delivery ORDER BY published_at DESC NULLS LAST, id LIMIT 20`;
    return (await c(sql, [orgId])).rows;
  },
  async Q4(c, orgId) {
    const author = await c(`SELECT id, fields->>'name' AS name FROM entries WHERE org_id = $1 AND id = $2 AND in_delivery`, [orgId, AUTHOR]);
    const scope = `org_id = $1 AND in_delivery AND model_alias = 'article' AND row_id IN (SELECT row_id FROM entry_edges WHERE org_id = $1 AND kind = 'reference' AND target_id = $2)`;
    const items = await c(`SELECT id, title FROM entries WHERE ${scope} ORDER BY published_at DESC NULLS LAST, id LIMIT 20`, [orgId, AUTHOR]);
    const total = await c(`SELECT count(*) FROM entries WHERE ${scope}`, [orgId, AUTHOR]);
    return [author.rows, items.rows, total.rows];
  },
  Q5: searchSql,
};

type Row = Record<string, unknown>;
const rowsOf = (r: unknown, i: number) => (r as Row[][])[i];
const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));

/**
 * The `data` of each query's GraphQL answer, from what its hand-written SQL returned (`SQL`): the
 * bare `pg` server of the bench writes it, so that it writes the same JSON as the API.
 */
export const DATA: Record<QueryName, (sqlResult: unknown) => unknown> = {
  Q1(r) {
    const authors = byId(rowsOf(r, 2));
    const items = rowsOf(r, 0).map((a) => ({ id: a.id, title: a.title, views: a.views, author: authors.get(a.author) ?? null }));
    return { articleCollection: { total: Number(rowsOf(r, 1)[0].count), items } };
  },
  Q2(r) {
    const [a] = rowsOf(r, 0);
    const authors = byId(rowsOf(r, 1));
    return { article: { id: a.id, title: a.title, views: a.views, author: authors.get(a.author) ?? null } };
  },
  Q3(r) {
    const items = (r as Row[]).map((e) => ({
      id: e.id,
      system: { modelAlias: e.model_alias, publishedAt: e.published_at instanceof Date ? e.published_at.toISOString() : e.published_at },
      ...(e.model_alias === 'article' ? { title: e.title, views: e.views } : { name: e.name }),
    }));
    return { entryCollection: { items } };
  },
  Q4(r) {
    const [author] = rowsOf(r, 0);
    const items = rowsOf(r, 1).map((a) => ({ id: a.id, title: a.title }));
    return { author: { id: author.id, name: author.name, relations: { articleCollection: { total: Number(rowsOf(r, 2)[0].count), items } } } };
  },
  Q5(r) {
    const items = rowsOf(r, 0).map((a) => ({ id: a.id, title: a.title }));
    return { articleCollection: { total: Number(rowsOf(r, 1)[0].count), items } };
  },
};
