import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeImports = {
  patterns: [
    { group: ['node:*'], message: 'Browser and shared code must not import Node built-ins.' },
    {
      group: ['**/node/**', '../node', '../../node'],
      message: 'Browser and shared code must not import build-only code (src/node).',
    },
  ],
};

const shikiInternals = {
  name: 'shiki/textmate',
  message: "shiki's private TextMate hooks live in src/node/highlight/textmate.ts only: add to that file.",
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'manifest/', '**/*.staging-*/', 'test/fixtures/', 'test-results/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/shared/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', nodeImports],
    },
  },
  {
    // shiki's internals are reached from one file, which a canary test guards (test/unit/node/highlight/).
    files: ['src/node/**/*.ts'],
    ignores: ['src/node/highlight/textmate.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [shikiInternals],
        },
      ],
    },
  },
  {
    // How code is highlighted is decided behind one boundary: the rest of the build highlights a page's
    // blocks through highlight/page-highlighter.ts and gets the colour classes' CSS from highlight/css.ts;
    // the cache and shiki stay inside src/node/highlight/.
    // This rule replaces the one above for these files, so it repeats shiki's internals.
    files: ['src/node/**/*.ts', 'build.ts', 'scripts/**/*.ts'],
    ignores: ['src/node/highlight/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            shikiInternals,
            { name: 'shiki', message: "shiki is the highlighter's inside: keep it in src/node/highlight/." },
          ],
          patterns: [
            {
              regex: '/highlight/(?!(page-highlighter|css)$)[^/]+$',
              message: 'highlight through src/node/highlight/page-highlighter.ts (or css.ts): the rest is its inside.',
            },
          ],
        },
      ],
    },
  },
);
