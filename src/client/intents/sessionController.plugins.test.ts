// The plugin intents against the real core: a project plugin waits for trust, Trust loads it, its slash command runs,
// disable and remove follow in the state; an SCV server answers that it has no plugins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NoticeItem, SessionState } from '../../shared/sessionState';
import { undecidedTrust } from '../../shared/pluginState';
import { realCoreEnv, unstartedScvController, untilState, useRealCoreControllers } from '../../../test/support/realCoreHarness';
import { script, tempDir, workspacePluginsDir, writePlugin } from '../../../test/support/pluginFixtures';

const startController = useRealCoreControllers();

const notices = (s: SessionState) => s.items.filter((i): i is NoticeItem => i.kind === 'notice').map((i) => `${i.level}:${i.text}`);

test('a project plugin: asked about at start, Trust loads it, its command runs, disable and remove show', { timeout: 60_000 }, async () => {
  const env = await realCoreEnv();
  writePlugin(workspacePluginsDir(env.workspace), 'lint', {
    manifest: {
      name: 'lint',
      version: '0.1.0',
      description: 'the lint plugin',
      commands: [{ name: 'lint-cmd', description: 'lints', script: 'cmd.js' }],
    },
    files: { 'cmd.js': script("answer({ output: 'linted ' + input.args });") },
  });
  const controller = await startController(env);

  const asked = await untilState(controller, (s) => undecidedTrust(s.plugins).length > 0);
  const [entry] = undecidedTrust(asked.plugins);
  assert.deepEqual([entry.name, entry.version, entry.description], ['lint', '0.1.0', 'the lint plugin']);
  assert.deepEqual(asked.plugins?.skipped, ['lint']);

  assert.equal(controller.trustPlugins({ [entry.path]: 'maybe' }), false, 'a bad decision is refused before it is sent');
  assert.equal(controller.trustPlugins({ [entry.path]: 'trust' }), true);
  const loaded = await untilState(controller, (s) => s.plugins?.commands.some((c) => c.name === 'lint-cmd') ?? false);
  assert.deepEqual(
    loaded.plugins?.list.map((p) => [p.name, p.scope, p.enabled, p.commands]),
    [['lint', 'workspace', true, ['lint-cmd']]],
  );
  assert.deepEqual(undecidedTrust(loaded.plugins), []);

  assert.equal(controller.runSlash('plugin', 'lint-cmd src'), true);
  await untilState(controller, (s) => notices(s).includes('info:linted src'));

  assert.equal(controller.pluginAction('disable', 'lint'), true);
  await untilState(controller, (s) => s.plugins?.list[0]?.enabled === false);
  assert.equal(controller.pluginAction('remove', 'lint'), true);
  const removed = await untilState(controller, (s) => s.plugins?.list.length === 0);
  assert.deepEqual(removed.plugins?.commands, []);
});

test('Install from Folder: a global install shows in the list with its tools after the core lists again', { timeout: 60_000 }, async () => {
  const env = await realCoreEnv();
  const source = writePlugin(tempDir('plugin-src-'), 'fmt-src', {
    manifest: {
      name: 'fmt',
      version: '0.2.0',
      description: 'formats',
      tools: [{ name: 'fmt_run', description: 'formats', kind: 'readonly', script: 'tool.js' }],
    },
    files: { 'tool.js': script("answer({ ok: true, output: 'ok' });") },
  });
  const controller = await startController(env);
  assert.equal(controller.installPlugin('  ', 'global'), false, 'no folder, nothing sent');
  assert.equal(controller.installPlugin(source, 'global'), true);
  const installed = await untilState(controller, (s) => s.plugins?.list.some((p) => p.name === 'fmt') ?? false);
  assert.deepEqual(
    installed.plugins?.list.map((p) => [p.name, p.version, p.scope, p.enabled]),
    [['fmt', '0.2.0', 'global', true]],
  );
  assert.ok(notices(installed).includes('info:Plugin fmt 0.2.0 installed (global).'));
  // plugin_installed carries no tools; the next plugins_list does (the Plugins view asks for it).
  assert.equal(controller.listPlugins(), true);
  const listed = await untilState(controller, (s) => s.plugins?.list[0]?.tools.length === 1);
  assert.deepEqual(listed.plugins?.list[0].tools, ['fmt_run']);
  assert.equal(controller.installPlugin(source, 'global'), true);
  await untilState(controller, (s) => notices(s).some((n) => n.startsWith('error:Plugin ') && n.includes('already installed')));
});

test('an SCV server has no plugins: the intents say so and send nothing', () => {
  const controller = unstartedScvController();
  assert.equal(controller.listPlugins(), false);
  assert.equal(controller.runSlash('plugin', 'lint-cmd'), false);
  assert.equal(controller.trustPlugins({ '/p': 'trust' }), false);
  assert.deepEqual(notices(controller.state), [
    'warning:An SCV server has no plugins.',
    'warning:An SCV server has no plugins.',
    'warning:An SCV server has no plugins.',
  ]);
});
