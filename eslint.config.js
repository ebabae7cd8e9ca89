import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A docblock describes the declaration right after it; one followed by another docblock describes
 * nothing (usually left behind when code moved), and a reader attaches it to the wrong thing.
 */
const orphanDocblock = {
  meta: { type: 'problem', messages: { orphan: 'This docblock is followed by another one: it describes no declaration. Merge or move it.' } },
  create(context) {
    const source = context.sourceCode;
    const isDocblock = (c) => c && c.type === 'Block' && c.value.startsWith('*');
    return {
      Program() {
        for (const comment of source.getAllComments()) {
          if (!isDocblock(comment)) continue;
          const next = source.getTokenAfter(comment, { includeComments: true });
          if (isDocblock(next)) context.report({ loc: comment.loc, messageId: 'orphan' });
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'data/**', 'node_modules/**', '.tmp/**'] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'folio/orphan-docblock': 'error',
    },
    plugins: { folio: { rules: { 'orphan-docblock': orphanDocblock } } },
  },
  {
    // The dashboard's script runs in the browser, with the charting library's global.
    files: ['api/http/dashboard/page/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, uPlot: 'readonly' } },
  },
  {
    // The Studio (a React app bundled by Vite) runs in the browser.
    files: ['api/studio/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read loosely-typed JSON responses.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
