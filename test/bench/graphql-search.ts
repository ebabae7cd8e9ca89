import type { Run } from './sql-run.js';

/**
 * Q5 of `bench:graphql`: a full-text search (`search` on a collection) ranked by relevance, with
 * its total, against the same full-text query in hand-written SQL over the same stored vectors.
 * The words: every article's title says "headline", one article in fifty has the tag `t7`, so
 * 2,000 of 100,000 articles match and are ranked. Target: ≥ 80 % of the raw SQL's rate.
 */
const WORDS = 't7 headlines';

export const SEARCH_GRAPHQL = `{ articleCollection(limit: 20, search: "${WORDS}") { total items { id title } } }`;

export async function searchSql(c: Run, orgId: string): Promise<unknown> {
  // the bench organization's default locale is en-US: english stemming, vectors under locale ''
  const from = `FROM entries e JOIN entry_search s ON s.row_id = e.row_id AND s.locale = ''
    WHERE e.org_id = $1 AND e.in_delivery AND e.model_alias = 'article' AND s.vector @@ websearch_to_tsquery('english', $2)`;
  const items = await c(`SELECT e.id, e.title ${from} ORDER BY ts_rank(s.vector, websearch_to_tsquery('english', $2)) DESC, e.id LIMIT 20`, [orgId, WORDS]);
  const total = await c(`SELECT count(*) ${from}`, [orgId, WORDS]);
  return [items.rows, total.rows];
}
