import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { AppError, ErrorCode } from '../../shared/errors/index.js';
import { knownError } from '../../shared/errors/known-error.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestStates } from './request-state.js';

/** AppError codes as GraphQL `extensions.code`. */
const GRAPHQL_CODE: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'BAD_USER_INPUT',
  UNPROCESSABLE: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

const withCode = (err: GraphQLError, code: string) =>
  err.extensions?.code ? err : new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions: { ...err.extensions, code } });

/**
 * yoga copies the JSON parser's SyntaxError (which quotes the body) into
 * `extensions.originalError` of its "invalid JSON" error: an implementation detail for no client.
 * (yoga also keys its status on that field: without it, `http.spec` would turn an application/json
 * answer into 200, so the status is kept as plain `http.status`.)
 */
function withoutOriginalError(err: GraphQLError): GraphQLError {
  if (!err.extensions || !('originalError' in err.extensions)) return err;
  type Http = { status?: number; headers?: Record<string, string> };
  const { originalError: _dropped, http, ...rest } = err.extensions as { originalError?: unknown; http?: Http };
  const extensions: Record<string, unknown> = rest;
  if (http?.status) extensions.http = { status: http.status, headers: http.headers };
  return new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, originalError: err.originalError, extensions });
}

/** Parse errors → GRAPHQL_PARSE_FAILED; validation errors without a code → GRAPHQL_VALIDATION_FAILED. */
export function useErrorCodes(): Plugin {
  return {
    onParse() {
      return ({ result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(withCode(result, 'GRAPHQL_PARSE_FAILED'));
      };
    },
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')));
      };
    },
  };
}

function fromAppError(err: GraphQLError, app: AppError): GraphQLError {
  const code = GRAPHQL_CODE[app.code];
  if (!code) return null as unknown as GraphQLError;
  const extensions: Record<string, unknown> = { code };
  if (app.details.length) extensions.details = app.details;
  if (app.retryAfter !== undefined) extensions.retryAfter = app.retryAfter;
  // A dependency outage is the response's status too (yoga reads `extensions.http`), so caches,
  // load balancers and clients that look only at the status retry instead of keeping an error.
  if (app.status === 503) extensions.http = { status: 503, headers: { 'Retry-After': String(app.retryAfter ?? 1) } };
  return new GraphQLError(app.message, { nodes: err.nodes, path: err.path, extensions });
}

/** Turns any error into what a client may see; `requestId` goes into the masked ones. */
export type MaskError = (error: unknown, requestId?: string) => GraphQLError;

/**
 * Yoga's `maskError`: AppErrors become their GraphQL code; GraphQL errors raised by the engine
 * (argument coercion and the like) are the caller's fault → BAD_USER_INPUT; anything else is
 * logged and masked as INTERNAL_SERVER_ERROR with the request id. Masking twice changes nothing.
 */
export function createMaskError(logger: Logger): MaskError {
  return (error, requestId) => {
    const gql = error instanceof GraphQLError ? error : null;
    const original = gql?.originalError ?? (gql ? null : error);
    const app = knownError(original);
    if (app) {
      const mapped = fromAppError(gql ?? new GraphQLError(app.message), app);
      if (mapped) return mapped;
    }
    if (gql && (!original || original instanceof GraphQLError)) return withCode(withoutOriginalError(gql), 'BAD_USER_INPUT');
    logger.error({ err: original ?? error, requestId }, 'graphql: unexpected error');
    return new GraphQLError('Unexpected error.', { nodes: gql?.nodes, path: gql?.path, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } });
  };
}

/**
 * Masks a result's errors where the request is known, so that an INTERNAL_SERVER_ERROR names
 * its request id; yoga's own masking, which runs after this, finds them masked already. (The id
 * used to reach yoga's `maskError` through an AsyncLocalStorage, whose promise hooks made every
 * promise of the process dearer: 4–14 % of a request's server CPU, measured.)
 */
export function useMaskedResultErrors(mask: MaskError, states: RequestStates): Plugin {
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const requestId = request ? states.get(request)?.requestId : undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (!result || Symbol.asyncIterator in result || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map((e) => mask(e, requestId)) });
        },
      };
    },
  };
}
