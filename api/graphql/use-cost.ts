import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LIMIT_CODES } from './limit-rules.js';
import { queryCost } from './query-cost.js';
import type { RequestStates } from './request-state.js';

/**
 * Computes the query cost before execution; over the org's maximum → COMPLEXITY_LIMIT_EXCEEDED
 * without touching the database. The cost is returned in `extensions.cost` either way.
 */
export function useCost(states: RequestStates): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const state = states.get((args.contextValue as { request: Request }).request);
      if (!state) return;
      let cost: number;
      try {
        cost = queryCost(args.schema, args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
      } catch (err) {
        if (err instanceof GraphQLError) return setResultAndStopExecution({ errors: [err] });
        throw err;
      }
      const max = state.org.limits.maxCost;
      if (cost > max) {
        return setResultAndStopExecution({
          errors: [new GraphQLError(`Query cost ${cost} exceeds the limit of ${max}.`, { extensions: { code: LIMIT_CODES.cost, cost, maxCost: max } })],
          extensions: { cost },
        });
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (result && typeof result === 'object' && !(Symbol.asyncIterator in result)) {
            setResult({ ...result, extensions: { ...result.extensions, cost } });
          }
        },
      };
    },
  };
}
