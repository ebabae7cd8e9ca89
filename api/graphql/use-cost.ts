import { GraphQLError, Kind, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LIMIT_CODES } from './limit-rules.js';
import { queryCost } from './query-cost.js';
import type { RequestStates } from './request-state.js';

// Costs of documents without variables, by schema, document and operation name: such a cost
// is the same at every execution (a parsed document is yoga's cached object for its text).
// Documents with variables, unknown operation names and costs that throw are computed each time.
const fixedCosts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, number>>>();

function costOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | null | undefined): number {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const fixed = operations.every((d) => !d.variableDefinitions?.length);
  // only names the document has are kept: a client cannot grow the map with made-up ones
  const named = operationName == null || operations.some((d) => d.name?.value === operationName);
  if (!fixed || !named) return queryCost(schema, document, variables, operationName);
  let byDocument = fixedCosts.get(schema);
  if (!byDocument) fixedCosts.set(schema, (byDocument = new WeakMap()));
  let byOperation = byDocument.get(document);
  if (!byOperation) byDocument.set(document, (byOperation = new Map()));
  let cost = byOperation.get(operationName ?? '');
  if (cost === undefined) byOperation.set(operationName ?? '', (cost = queryCost(schema, document, undefined, operationName)));
  return cost;
}

/**
 * Computes the query cost before execution; over the org's maximum → COMPLEXITY_LIMIT_EXCEEDED
 * without touching the database. The cost is returned in `extensions.cost` either way.
 */
export function useCost(states: RequestStates): Plugin {
  /** The cost of an operation, or the result that refuses it (over the limit, or a cost that throws). */
  const check = (args: { contextValue: unknown; schema: GraphQLSchema; document: DocumentNode; variableValues?: unknown; operationName?: string | null }): { refused: ExecutionResult } | { cost: number } | null => {
    const state = states.get((args.contextValue as { request: Request }).request);
    if (!state) return null;
    let cost: number;
    try {
      cost = costOf(args.schema, args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
    } catch (err) {
      if (err instanceof GraphQLError) return { refused: { errors: [err] } };
      throw err;
    }
    const max = state.org.limits.maxCost;
    if (cost > max) {
      return {
        refused: { errors: [new GraphQLError(`Query cost ${cost} exceeds the limit of ${max}.`, { extensions: { code: LIMIT_CODES.cost, cost, maxCost: max } })], extensions: { cost } },
      };
    }
    return { cost };
  };
  return {
    // a subscription's document is answered again on every change: it stays within the same cost
    onSubscribe({ args, setResultAndStopExecution }) {
      const checked = check(args);
      if (checked && 'refused' in checked) setResultAndStopExecution(checked.refused);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const checked = check(args);
      if (!checked) return;
      if ('refused' in checked) return setResultAndStopExecution(checked.refused);
      const { cost } = checked;
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
