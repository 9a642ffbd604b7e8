// ESLint: typescript-eslint's type-aware recommended rules everywhere, plus the layering
// rules of docs/design.md: pcp-core imports nothing from the DOM, workers, Node or UI
// libraries, and only one UI module may touch each third-party state/messaging library.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = ['fs', 'path', 'os', 'net', 'child_process', 'http', 'https', 'url', 'stream', 'zlib', 'crypto', 'worker_threads', 'util', 'events'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'public/', 'test-results/', 'playwright-report/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.core.json', './tsconfig.worker.json', './tsconfig.app.json', './tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node }, parserOptions: { project: false, program: null } },
  },
  {
    files: ['src/pcp-core/**/*.ts'],
    ignores: ['src/pcp-core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', ...nodeBuiltins], message: 'pcp-core is platform-free: inject Node facilities from src/node.' },
          { group: ['react', 'react-dom', 'zustand', 'echarts', 'comlink', 'ws'], message: 'pcp-core must not depend on UI, worker or server libraries.' },
          { group: ['**/ui/**', '**/workers/**', '**/node/**', '**/cli/**', '**/server/**'], message: 'pcp-core is the bottom layer.' },
        ],
      }],
      'no-restricted-globals': ['error', 'window', 'document', 'self', 'postMessage', 'importScripts', 'process', 'Buffer', 'require'],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        patterns: [
          // One exception: pcp-core/time, so chart axes and the time bar use libpcp's zone rules
          // (pmNewZone) rather than a second implementation (issue 17 item 4).
          { regex: 'pcp-core/(?!time/)', allowTypeImports: true, message: 'The UI talks to the core only through the engine worker (ui/engine-client.ts); type imports are fine, and pcp-core/time (zones) may be imported.' },
          { group: ['**/node/**', '**/cli/**', '**/server/**', 'node:*'], message: 'The UI runs in the browser.' },
        ],
      }],
    },
  },
);
