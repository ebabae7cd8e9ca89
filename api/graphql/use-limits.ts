import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { LIMIT_CODES } from './limit-rules.js';
import type { RequestStates } from './request-state.js';

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
 * The org's document limits (DESIGN §4), all before any database work: document size (bytes of
 * the query text), tokens, then depth, aliases and directives as validation rules
 * (graphql-armor), built once per org schema.
 *
 * Tokens are counted before parsing, not by a counting parser: yoga caches parsed documents
 * (and parse errors) by their text alone, for every org, so a limit applied while parsing would
 * hold only for the org that sent a text first. Counts are memoized by text instead; the size
 * limit, checked earlier, bounds the work of a first count.
 */
export function useLimits(states: RequestStates): Plugin {
  const tokenCounts = new LRUCache<string, number>({ max: 5000, maxSize: 32 * 1024 * 1024, sizeCalculation: (_n, text) => text.length || 1 });
  return {
    onParams({ params, request }) {
      const state = states.get(request);
      const max = state?.org.limits.maxDocumentBytes;
      if (max && typeof params.query === 'string' && Buffer.byteLength(params.query) > max) {
        throw limitError(LIMIT_CODES.document, `The query document exceeds ${max} bytes.`);
      }
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
    onValidate({ context, addValidationRule }) {
      const state = context?.request ? states.get(context.request) : undefined;
      for (const rule of state?.org.rules ?? []) addValidationRule(rule);
    },
  };
}
