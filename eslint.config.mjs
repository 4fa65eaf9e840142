// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // Layering (BRIEF §2): protocol imports nothing of ours; core and client only protocol; pure logic never imports vscode.
    files: ['src/protocol/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../core/*', '../client/*', '../vscode/*', 'vscode'] }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../client/*', '../vscode/*', '../../client/*', '../../vscode/*', 'vscode'] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../core/*', '../client/*', '../vscode/*', 'vscode', 'node:*'] }] },
  },
  {
    // The webview renders in a browser and may import only the host↔webview message types (src/shared).
    files: ['webview/**/*.ts'],
    ignores: ['webview/**/*.test.ts', 'webview/dev/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../src/core/*', '../src/client/*', '../src/vscode/*', '../src/protocol/*', 'vscode', 'node:*'] }] },
  },
  {
    files: ['src/client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../core/*', '../vscode/*', '../../core/*', '../../vscode/*', 'vscode'] }] },
  },
);
