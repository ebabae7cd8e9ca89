/**
 * The one `graphql` module of the delivery code. graphql 16 ships CJS (`index.js`) and ESM
 * (`index.mjs`) builds; Node and graphql-yoga load the CJS one, but Vite-based runners (vitest)
 * resolve a bare `graphql` import to the ESM build, giving two copies and "Cannot use
 * GraphQLSchema from another module or realm". Importing the CJS entry explicitly keeps one copy
 * everywhere.
 */
export * from 'graphql/index.js';
