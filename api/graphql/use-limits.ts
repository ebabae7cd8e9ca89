import { GraphQLError, Lexer, Source, TokenKind, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { FILTER_LIMITS } from '../../shared/delivery/filters/filter-limits.js';
import { jsonShapeProblem, MAX_JSON_DEPTH } from '../../shared/json-depth.js';
import { expandedFieldCount } from './expanded-size.js';
import { LIMIT_CODES } from './limit-rules.js';
import type { RequestStates } from './request-state.js';

/** Every list argument of the schema is a filter's: the filter limit on list items holds for variables too. */
export const VARIABLE_LIMITS = { maxDepth: MAX_JSON_DEPTH, maxListItems: FILTER_LIMITS.maxListItems };

const limitError = (code: string, message: string) => new GraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * Non-comment tokens of a document, as a parser consumes them; a lexing error ends the count
 * (the parser then reports it).
 */
function countTokens(source: string): number {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) n++;
  } catch {
    // counted up to the bad character
  }
  return n;
}

/**
 * The org's document limits, all before any database work: document size (bytes of the query
 * text), the shape of the variables, tokens, fields with fragment spreads expanded, then depth,
 * aliases and directives as validation rules (graphql-armor), built once per org schema.
 *
 * Tokens are counted before parsing, not by a counting parser: yoga caches parsed documents
 * (and parse errors) by their text alone, for every org, so a limit applied while parsing would
 * hold only for the org that sent a text first. Counts are memoized by text instead; the size
 * limit, checked earlier, bounds the work of a first count.
 */
export function useLimits(states: RequestStates): Plugin {
  const tokenCounts = new LRUCache<string, number>({ max: 5000, maxSize: 32 * 1024 * 1024, sizeCalculation: (_n, text) => text.length || 1 });
  // yoga caches a parsed document per text: its expanded size is counted once per document.
  const expandedCounts = new WeakMap<DocumentNode, number>();
  return {
    onParams({ params, request }) {
      const state = states.get(request);
      const max = state?.org.limits.maxDocumentBytes;
      if (max && typeof params.query === 'string' && Buffer.byteLength(params.query) > max) {
        throw limitError(LIMIT_CODES.document, `The query document exceeds ${max} bytes.`);
      }
      // Input coercion walks variables recursively (a deep value would overflow the stack there)
      // and item by item: refused here, before coercion, rather than after it by the filter limits.
      const problem = params.variables ? jsonShapeProblem(params.variables, VARIABLE_LIMITS) : null;
      if (problem) throw limitError('BAD_USER_INPUT', `Variables: ${problem}.`);
    },
    onParse({ context, params }) {
      const state = context?.request ? states.get(context.request) : undefined;
      if (!state) return;
      const text = typeof params.source === 'string' ? params.source : params.source.body;
      let count = tokenCounts.get(text);
      if (count === undefined) tokenCounts.set(text, (count = countTokens(text)));
      const n = state.org.limits.maxTokens;
      if (count > n) throw limitError(LIMIT_CODES.tokens, `Token limit of ${n} exceeded.`);
    },
    onValidate({ context, params, addValidationRule, setResult }) {
      const state = context?.request ? states.get(context.request) : undefined;
      if (!state) return;
      // Before every rule (a result set here skips validation): some rules grow with the
      // expanded document, which fragments can make exponentially larger than its text.
      const max = state.org.limits.maxExpandedFields;
      let expanded = expandedCounts.get(params.documentAST);
      if (expanded === undefined) expandedCounts.set(params.documentAST, (expanded = expandedFieldCount(params.documentAST)));
      if (expanded > max) {
        setResult([limitError(LIMIT_CODES.expanded, `The document expands to ${expanded} fields with its fragment spreads; the limit is ${max}.`)]);
        return;
      }
      for (const rule of state.org.rules) addValidationRule(rule);
    },
  };
}
