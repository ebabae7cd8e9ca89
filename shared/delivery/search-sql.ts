import type { EntrySearch } from '../content/search-words.js';
import type { SqlParams } from './sql-params.js';

export { entrySearch, type EntrySearch } from '../content/search-words.js';

/**
 * SQL over the entry alias `e`: the condition that its vector in the search's locale matches the
 * words (`websearch_to_tsquery`: words are ANDed, `"a phrase"`, `or`, `-word`), and its relevance
 * (`ts_rank`), an order key. Both read `entry_search` through its primary key per entry; the
 * condition is served by the GIN index on the vectors.
 */
export function searchSql(s: EntrySearch, e: string, params: SqlParams): { where: string; rank: string } {
  const locale = params.add(s.locale);
  // the configuration in a scalar subquery: evaluated once per statement (an init plan), so the
  // query is a constant the GIN index scan can take, not a function call per row
  const query = `websearch_to_tsquery((SELECT folio_ts_config(${params.add(s.config)}::text)), ${params.add(s.text)}::text)`;
  return {
    where: `EXISTS (SELECT 1 FROM entry_search s WHERE s.row_id = ${e}.row_id AND s.locale = ${locale} AND s.vector @@ ${query})`,
    rank: `(SELECT ts_rank(s.vector, ${query})::numeric FROM entry_search s WHERE s.row_id = ${e}.row_id AND s.locale = ${locale})`,
  };
}
