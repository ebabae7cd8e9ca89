import { Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

interface Entry {
  runs: number;
  /** undefined: not compiled yet; null: not for graphql-jit, graphql-js runs it. */
  compiled?: CompiledQuery | null;
}

/** Whether any operation of the document declares variables. */
const declaresVariables = (document: DocumentNode) =>
  document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && (d.variableDefinitions?.length ?? 0) > 0);

export interface JitStats {
  /** Documents compiled. */
  compiled: number;
  /** Executions that ran a compiled function. */
  executed: number;
}

/**
 * Runs a query that an org's schema has executed `after` times already through a function
 * graphql-jit compiled for it, instead of graphql-js's interpreter: a third less execution CPU
 * for a page of 20 entries, two fifths for one entry with its author (measured, same results).
 * A one-off document never pays the compilation.
 *
 * Only documents without variables: graphql-jit also compiles the coercion of variables, and
 * for our recursive filter inputs (`and`/`or` of themselves, nested model filters) that code
 * grows without bound (a single `$w: ArticleFilter` exhausted a 1.5 GB heap), while its answers
 * to bad variables differ from graphql-js's. Documents are the parsed objects of yoga's parse
 * cache (one per text), so entries live as long as that cache keeps the document; each org
 * schema (one per schema version) has its own. graphql-jit's result `stringify` is not used:
 * later plugins add `extensions`, which a stringifier compiled for the query's shape would drop.
 * A result with errors is computed again by the executor that would have run (yoga's), whose
 * error answers are the reference (graphql-jit leaves out `locations`); resolvers only read, so
 * that costs time, nothing else.
 */
export function useJit(options: { after?: number; stats?: JitStats } = {}): Plugin {
  const after = options.after ?? 1;
  const stats = options.stats ?? { compiled: 0, executed: 0 };
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Entry>>>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      let byDocument = bySchema.get(args.schema);
      if (!byDocument) bySchema.set(args.schema, (byDocument = new WeakMap()));
      let byOperation = byDocument.get(args.document);
      if (!byOperation) byDocument.set(args.document, (byOperation = new Map()));
      const operation = args.operationName ?? '';
      let entry = byOperation.get(operation);
      if (!entry) byOperation.set(operation, (entry = { runs: 0, compiled: declaresVariables(args.document) ? null : undefined }));
      if (entry.compiled === null) return;
      if (entry.runs < after) {
        entry.runs++;
        return;
      }
      if (entry.compiled === undefined) {
        const compiled = compileQuery(args.schema, args.document, args.operationName ?? undefined);
        entry.compiled = isCompiledQuery(compiled) ? compiled : null;
        if (entry.compiled) stats.compiled++;
      }
      const compiled = entry.compiled;
      if (!compiled) return;
      stats.executed++;
      setExecuteFn(async (a: ExecutionArgs) => {
        const result = (await compiled.query(a.rootValue, a.contextValue, a.variableValues ?? {})) as ExecutionResult;
        // graphql-jit's errors lack `locations`: an answer with errors is the interpreter's
        return result.errors?.length ? executeFn(a) : result;
      });
    },
  };
}
