import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LIMIT_CODES } from './limit-rules.js';
import type { RequestStates } from './request-state.js';

const limitError = (code: string, message: string) => new GraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * The org's document limits (DESIGN §4), all before any database work: document size (bytes of
 * the query text), tokens (graphql-armor's counting parser), then depth, aliases and directives
 * as validation rules (graphql-armor), built once per org schema.
 */
export function useLimits(states: RequestStates): Plugin {
  return {
    onParams({ params, request }) {
      const state = states.get(request);
      const max = state?.org.limits.maxDocumentBytes;
      if (max && typeof params.query === 'string' && Buffer.byteLength(params.query) > max) {
        throw limitError(LIMIT_CODES.document, `The query document exceeds ${max} bytes.`);
      }
    },
    onParse({ context, setParseFn }) {
      const state = context?.request ? states.get(context.request) : undefined;
      if (!state) return;
      const n = state.org.limits.maxTokens;
      setParseFn((source, options) => {
        const parser = new MaxTokensParserWLexer(source, { ...options, n, exposeLimits: true, propagateOnRejection: true, onAccept: [], onReject: [] });
        try {
          return parser.parseDocument();
        } catch (err) {
          if (err instanceof GraphQLError && /Token limit/.test(err.message)) throw limitError(LIMIT_CODES.tokens, `Token limit of ${n} exceeded.`);
          throw err;
        }
      });
    },
    onValidate({ context, addValidationRule }) {
      const state = context?.request ? states.get(context.request) : undefined;
      for (const rule of state?.org.rules ?? []) addValidationRule(rule);
    },
  };
}
