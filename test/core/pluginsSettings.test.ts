import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin } from '../support/pluginFixtures';

const commandPlugin = (name: string) => ({
  manifest: { name, version: '1.0.0', description: `the ${name} plugin`, commands: [{ name: `${name}-cmd`, script: 'cmd.js' }] },
  files: { 'cmd.js': script("answer({ output: 'ran' });") },
});

test('plugins.dir moves the workspace plugins folder; plugins.disabled loads those plugins disabled until enabled', async () => {
  const home = tempDir('plugins-settings-home-');
  const workspace = tempDir('plugins-settings-ws-');
  writePlugin(globalPluginsDir(home), 'quiet', commandPlugin('quiet'));
  writePlugin(globalPluginsDir(home), 'loud', commandPlugin('loud'));
  writePlugin(join(workspace, 'tools', 'plugins'), 'local', commandPlugin('local'));
  writePlugin(join(workspace, '.catalyst-code', 'plugins'), 'ignored', commandPlugin('ignored'));
  const s = await startScenario({
    home,
    workspace,
    args: ['--trust-project-plugins'],
    config: { plugins: { dir: 'tools/plugins', disabled: ['quiet'] } },
  });
  try {
    const list = async () => {
      const from = s.core.events.length;
      s.core.send({ type: 'list_plugins' });
      const answer = await s.core.waitForType('plugins_list', { from });
      await s.core.waitForType('plugin_commands', { from });
      return answer.plugins.map((p: any) => [p.name, p.scope, p.enabled, p.path]);
    };
    const localPath = realpathSync(join(workspace, 'tools', 'plugins', 'local'));
    assert.deepEqual(await list(), [
      ['local', 'workspace', true, localPath],
      ['loud', 'global', true, realpathSync(join(globalPluginsDir(home), 'loud'))],
      ['quiet', 'global', false, realpathSync(join(globalPluginsDir(home), 'quiet'))],
    ]);

    let from = s.core.events.length;
    s.core.send({ type: 'enable_plugin', name: 'quiet' });
    await s.core.waitForType('plugin_enabled', { from });
    from = s.core.events.length;
    s.core.send({ type: 'reload_plugins' });
    await s.core.waitFor((e) => e.type === 'info' && /^plugins reloaded/.test(e.message), { from });
    assert.deepEqual(
      (await list()).map((p: unknown[]) => [p[0], p[2]]),
      [
        ['local', true],
        ['loud', true],
        ['quiet', true],
      ],
      'the setting applies at launch only: a reload keeps what enable_plugin did',
    );
  } finally {
    await s.close();
  }
});
