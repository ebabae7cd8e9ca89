import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, type ValidationContext, type ValidationRule } from 'graphql';
import type { GraphqlLimits } from '../../shared/delivery/org-schema-source.js';

/** Error codes naming the limit that was exceeded. */
export const LIMIT_CODES = {
  depth: 'DEPTH_LIMIT_EXCEEDED',
  aliases: 'ALIAS_LIMIT_EXCEEDED',
  directives: 'DIRECTIVE_LIMIT_EXCEEDED',
  tokens: 'TOKEN_LIMIT_EXCEEDED',
  document: 'DOCUMENT_TOO_LARGE',
  cost: 'COMPLEXITY_LIMIT_EXCEEDED',
  expanded: 'COMPLEXITY_LIMIT_EXCEEDED',
} as const;

/** Reports graphql-armor's rejection as a validation error carrying our code. */
const reportAs = (code: string) => (ctx: ValidationContext | null, err: GraphQLError) => {
  ctx?.reportError(new GraphQLError(err.message.replace(/^Syntax Error: /, ''), { extensions: { code } }));
};

/** graphql-armor's depth, alias and directive rules with the org's limits (built once per schema). */
export function limitRules(limits: GraphqlLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false, onAccept: [] };
  return [
    maxDepthRule({ ...common, n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, onReject: [reportAs(LIMIT_CODES.depth)] }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [reportAs(LIMIT_CODES.aliases)] }),
    maxDirectivesRule({ ...common, n: limits.maxDirectives, onReject: [reportAs(LIMIT_CODES.directives)] }),
  ] as ValidationRule[];
}
