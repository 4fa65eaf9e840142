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

/**
 * The levels of src/core, lowest first (docs/architecture.md, "Levels of the core"). A folder imports only folders on
 * lower levels: never one on its own level, never one above. `main.ts` is the entry; a folder not in this table may be
 * imported by nobody, so a new folder must take a level here first. Zones are generated from it (CORE_ZONES).
 */
export const CORE_LEVELS = [
  { level: 0, folders: ['platform'] },
  { level: 1, folders: ['runtime', 'providers', 'intercom', 'memory'] },
  { level: 2, folders: ['config'] },
  { level: 3, folders: ['approvals', 'models', 'pricing', 'usage', 'sessions', 'checkpoints', 'web', 'rules', 'skills', 'worktrees'] },
  { level: 4, folders: ['agents'] },
  { level: 5, folders: ['tools'] },
  { level: 6, folders: ['agent'] },
  { level: 7, folders: ['plugins', 'subagents', 'vision', 'mcp'] },
  { level: 8, folders: ['goal'] },
  { level: 9, folders: ['app'] },
  { level: 10, folders: ['commands'] },
  { level: 11, folders: ['main.ts'] },
];

/** The level of a folder of src/core (or of `main.ts`), undefined when the table has none. */
export function levelOf(folder) {
  return CORE_LEVELS.find((row) => row.folders.includes(folder))?.level;
}

/** Per folder: it may import from src/core only itself and the folders on lower levels. */
const CORE_ZONES = CORE_LEVELS.flatMap(({ level, folders }) => {
  const below = CORE_LEVELS.filter((row) => row.level < level).flatMap((row) => row.folders);
  return folders.map((folder) => ({
    target: `./src/core/${folder}`,
    from: './src/core',
    except: [folder, ...below].map((allowed) => `./${allowed}`),
    message:
      level === 0
        ? `src/core/${folder} is level 0: it imports node and npm only, nothing of ours`
        : `src/core/${folder} is level ${level}: it may import only ${below.join(', ')} (lower levels; see CORE_LEVELS)`,
  }));
});

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
        {
          zones: [
            ...LAYER_ZONES,
            ...CORE_ZONES,
            { target: ['./src', './webview'], from: './test', message: 'product code must not import test code' },
          ],
        },
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
    // Only src/core/commands reads command types; below it, code takes plain arguments (docs/architecture.md, "Levels
    // of the core"). Keeps the vscode ban of the block above, which this one replaces for these files.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/commands/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'only src/vscode and src/extension.ts may import vscode' }],
          patterns: [
            {
              group: ['**/protocol', '**/protocol/index', '**/protocol/commands'],
              importNamePattern: '^(Command|CommandOf|CommandType|isCommandType|\\w+Command)$',
              message: 'only src/core/commands reads command types: pass what a command carries as plain arguments',
            },
          ],
        },
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
