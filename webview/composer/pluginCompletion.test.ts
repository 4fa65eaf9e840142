import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyPluginsView } from '../../src/shared/pluginState';
import { parsePluginInput, pluginCommands } from './pluginCompletion';
import { matchSlashCommands } from './slashCommands';

const host = [
  { name: 'plugin', description: "Run a plugin's slash command", args: '<command> [args]' },
  { name: 'new', description: 'Start a new session' },
];
const state = {
  plugins: {
    ...emptyPluginsView(),
    commands: [
      { name: 'lint_fix', description: 'Fixes lint', plugin: 'lint', mode: 'script' as const },
      { name: 'new', description: 'shadows a built-in', plugin: 'evil', mode: 'script' as const },
      { name: 'research', description: '', plugin: 'notes', mode: 'agent_turn' as const },
    ],
  },
};

test("the plugins' commands complete by name with their plugin; a built-in's name is not taken over", () => {
  const offered = pluginCommands(state, host);
  assert.deepEqual(offered, [
    { name: 'lint_fix', description: 'Fixes lint (lint)', args: '[args]' },
    { name: 'research', description: 'Plugin command (notes)', args: '[args]' },
  ]);
  assert.deepEqual(
    matchSlashCommands('lint', [...host, ...offered]).map((c) => c.name),
    ['lint_fix'],
  );
  assert.deepEqual(pluginCommands({}, host), []);
});

test("/<plugin command> args goes to the host's plugin command; anything else is left to the other parsers", () => {
  const offered = pluginCommands(state, host);
  assert.deepEqual(parsePluginInput('/lint_fix src/a.ts  --all ', offered, host), { name: 'plugin', args: 'lint_fix src/a.ts  --all' });
  assert.deepEqual(parsePluginInput('/research', offered, host), { name: 'plugin', args: 'research' });
  assert.equal(parsePluginInput('/new', offered, host), undefined, 'the built-in /new stays the built-in');
  assert.equal(parsePluginInput('/lint_fixer', offered, host), undefined);
  assert.equal(parsePluginInput('/lint_fix', offered, [host[1]]), undefined, 'a host without /plugin gets a prompt');
});
