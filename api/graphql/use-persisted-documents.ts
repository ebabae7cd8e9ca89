import type { Plugin } from 'graphql-yoga';
import type { DocumentStore } from '../../shared/edge/document-store.js';
import { namesDocument, resolveDocumentText } from './persisted-query.js';
import type { RequestStates } from './request-state.js';

/**
 * Persisted documents on yoga's own path (the requests the fast lane does not take): the text of a
 * request that names its document, or the trusted-documents check (`resolveDocumentText`, the
 * fast lane's rule). A GET yoga answers is never stored by a cache: the fast lane answers the
 * cacheable ones.
 */
export function usePersistedDocuments(deps: { documents: DocumentStore; states: RequestStates }): Plugin {
  return {
    // A refusal is thrown: yoga answers a GraphQLError thrown here with its extensions.http
    // status, and no later hook (its own parameter check) runs.
    async onParams({ params, request, setParams }) {
      const state = deps.states.get(request);
      if (!state) return;
      const documentId = request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') : (params as { documentId?: string | null }).documentId;
      const named = { query: params.query, extensions: params.extensions, documentId };
      const text = await resolveDocumentText(deps.documents, state, named);
      if (text === null || !namesDocument(named)) return;
      const { persistedQuery: _, ...extensions } = params.extensions ?? {};
      const { documentId: _id, ...rest } = params as typeof params & { documentId?: unknown };
      setParams({ ...rest, query: text, extensions });
    },
    onResponse({ request, response }) {
      if (request.method === 'GET' && !response.headers.has('cache-control')) response.headers.set('Cache-Control', 'no-store');
    },
  };
}
