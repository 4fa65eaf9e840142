// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/** Which layer may not import which (resolved paths). `target` imports nothing `from`. */
const LAYER_ZONES = [
  {
    target: './src/protocol',
    from: ['./src/shared', './src/core', './src/client', './src/vscode', './src/extension.ts', './webview'],
    message: 'src/protocol imports nothing of ours',
  },
  {
    target: './src/shared',
    from: ['./src/core', './src/client', './src/vscode', './src/extension.ts', './webview'],
    message: 'src/shared may import only src/protocol',
  },
  {
    target: './src/core',
    from: ['./src/shared', './src/client', './src/vscode', './src/extension.ts', './webview'],
    message: 'src/core may import only src/protocol',
  },
  {
    target: './src/core/platform',
    from: './src/core',
    except: ['./platform'],
    message: 'src/core/platform is level 0: it imports node and npm only, nothing of ours',
  },
  {
    target: './src/core/platform',
    from: './src/protocol',
    message: 'src/core/platform is level 0: it imports node and npm only, nothing of ours',
  },
  {
    target: './src/client',
    from: ['./src/core', './src/vscode', './src/extension.ts', './webview'],
    message: 'src/client may import src/protocol and src/shared',
  },
  {
    target: './src/client/state',
    from: ['./src/client/channel', './src/client/intents'],
    message: 'src/client/state (the reduced state) imports neither the channel to a core nor the intents',
  },
  {
    target: './src/vscode',
    from: ['./src/core', './src/extension.ts', './webview'],
    message: 'src/vscode may import src/client, src/shared and src/protocol — never the core itself',
  },
  {
    target: './webview',
    from: ['./src/core', './src/client', './src/vscode', './src/protocol', './src/extension.ts'],
    message: 'the webview may import only src/shared (the host↔webview contract)',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'out/**', '.tmp/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware: a promise nobody awaits loses its rejection (an unhandled rejection kills the extension host's
    // listeners silently), and an async callback where a void one is expected is never awaited. node:test's
    // describe/it return promises the runner tracks itself.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Layering (BRIEF §2, docs/architecture.md): an import may only point down the layer table. Checked on the
    // *resolved* file, so subfolders, barrels (index.ts) and any spelling of a path are caught alike.
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }] },
  },
  {
    // Product code never imports test code (tests may import test support from test/).
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    ignores: ['**/*.test.ts', 'webview/dev/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...LAYER_ZONES, { target: ['./src', './webview'], from: './test', message: 'product code must not import test code' }] },
      ],
    },
  },
  {
    // Pure logic never imports vscode; the webview and the shared contract run in a browser too.
    files: ['src/protocol/**/*.ts', 'src/core/**/*.ts', 'src/shared/**/*.ts', 'src/client/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'only src/vscode and src/extension.ts may import vscode' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts', 'webview/**/*.ts'],
    ignores: ['**/*.test.ts', 'webview/dev/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'browser code' }],
          patterns: [{ group: ['node:*'], message: 'browser code: no Node modules' }],
        },
      ],
    },
  },
);
