import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreProcess } from '../support/coreProcess';
import { startScenario } from '../support/coreScenario';
import { ALLOW, globalPluginsDir, script, tempDir, workspacePluginsDir, writePlugin } from '../support/pluginFixtures';

/** A plugin with one tool (destructive by default), one script command and one prompt command. */
const TOOLBOX = {
  manifest: {
    name: 'toolbox',
    version: '1.2.0',
    description: 'adds an echo tool and two commands',
    tools: [
      {
        name: 'echo_args',
        description: 'echoes its arguments',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
        script: 'tools/echo.js',
      },
    ],
    commands: [
      { name: '/greet', description: 'says hello', script: 'commands/greet.js' },
      { name: 'research', description: 'researches', prompt_file: 'prompts/research.md' },
    ],
  },
  files: {
    'tools/echo.js': script("answer({ ok: true, output: 'echo: ' + input.args.text, status: 'echoed' });"),
    'commands/greet.js': script("answer({ ok: true, output: 'hello ' + input.args + ' from ' + input.plugin });"),
    'prompts/research.md': 'Research {{ args }} for plugin {{plugin}}; keep {{unknown}}.',
    '.env': 'SECRET=1',
    '.env.example': 'SECRET=',
    'node_modules/dep/index.js': 'x',
  },
  plain: ['prompts/research.md', '.env', '.env.example', 'node_modules/dep/index.js'],
};

/** A project plugin with one command, as a repository would ship it. */
const projectPlugin = (name: string) => ({
  manifest: { name, version: '0.1.0', description: `the ${name} plugin`, commands: [{ name: `${name}-cmd`, script: 'cmd.js' }] },
  files: { 'cmd.js': script("answer({ output: 'ran' });") },
});

test('a plugin installed from a folder adds a tool (approved as destructive) and slash commands; the copy skips secrets and caches', async () => {
  const source = tempDir('plugin-src-');
  const folder = writePlugin(source, 'toolbox-src', TOOLBOX);
  const s = await startScenario({
    script: [
      { steps: [{ toolCall: { id: 't1', name: 'echo_args', arguments: { text: 'hi' } } }] },
      { steps: [{ text: 'done' }] },
      { steps: [{ text: 'researched' }] },
    ],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'install_plugin', path: folder });
    const installed = await s.core.waitForType('plugin_installed', { from });
    const dest = join(globalPluginsDir(s.core.home), 'toolbox');
    assert.deepEqual(installed, {
      ...installed,
      name: 'toolbox',
      version: '1.2.0',
      description: 'adds an echo tool and two commands',
      hooks: [],
      scope: 'global',
      path: realpathSync(dest),
    });
    assert.ok(existsSync(join(dest, 'tools/echo.js')));
    assert.ok(existsSync(join(dest, '.env.example')));
    assert.ok(!existsSync(join(dest, '.env')), '.env is not copied');
    assert.ok(!existsSync(join(dest, 'node_modules')), 'node_modules is not copied');

    const listFrom = s.core.events.length;
    s.core.send({ type: 'list_plugins' });
    const list = await s.core.waitForType('plugins_list', { from: listFrom });
    const commands = await s.core.waitForType('plugin_commands', { from: listFrom });
    assert.deepEqual(
      list.plugins.map((p: any) => [p.name, p.scope, p.enabled, p.tools, p.commands]),
      [['toolbox', 'global', true, ['echo_args'], ['greet', 'research']]],
    );
    assert.deepEqual(commands.commands, [
      { name: 'greet', description: 'says hello', plugin: 'toolbox', mode: 'script' },
      { name: 'research', description: 'researches', plugin: 'toolbox', mode: 'agent_turn' },
    ]);

    const events = await s.turnAnswering('use the tool', ['yes']);
    const request = events.find((e) => e.type === 'approval_request');
    assert.equal(request.tool, 'echo_args');
    assert.equal(request.risk, 'destructive');
    const result = events.find((e) => e.type === 'tool_result' && e.id === 't1');
    assert.deepEqual([result.ok, result.status, result.output], [true, 'success', 'echo: hi']);
    assert.ok(events.some((e) => e.type === 'plugin_status' && e.plugin === 'toolbox' && e.text === 'echoed'));
    const offered = s.model.requests.find((r) => r.method === 'POST')!.body.tools.map((t: any) => t.function?.name ?? t.name);
    assert.ok(offered.includes('echo_args'));

    const cmdFrom = s.core.events.length;
    s.core.send({ type: 'plugin_command', name: '/greet', args: 'world' });
    const info = await s.core.waitForType('info', { from: cmdFrom });
    assert.equal(info.message, 'hello world from toolbox');

    const turnFrom = s.core.events.length;
    s.core.send({ type: 'plugin_command', name: 'research', args: 'caching' });
    await s.core.waitForType('done', { from: turnFrom });
    assert.equal(s.core.ofType('info', turnFrom)[0].message, '/research caching — starting agent turn');
    const last = s.model.requests.filter((r) => r.method === 'POST').at(-1)!.body.messages;
    assert.equal(last.at(-1).content, 'Research caching for plugin toolbox; keep {{unknown}}.');
  } finally {
    await s.close();
  }
});

test('project plugins stay unloaded until trusted; the decision is stored in plugin-trust.json and holds on the next start', async () => {
  const workspace = tempDir('core-ws-');
  const home = tempDir('core-home-');
  writePlugin(workspacePluginsDir(workspace), 'proj', projectPlugin('proj'));
  const key = realpathSync(join(workspacePluginsDir(workspace), 'proj'));
  const first = CoreProcess.start({ workspace, home });
  try {
    const { ready, hello } = await first.handshake();
    assert.ok(hello.capabilities.includes('plugins'));
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [[], ['proj']]);
    const helloAt = first.events.indexOf(hello);
    assert.equal(first.events[helloAt + 1].type, 'plugin_trust_prompt', 'asked right after protocol_hello');
    assert.deepEqual(first.events[helloAt + 1].plugins, [
      { name: 'proj', version: '0.1.0', description: 'the proj plugin', path: key, decision: '' },
    ]);

    let from = first.events.length;
    first.send({ type: 'plugin_command', name: 'proj-cmd' });
    assert.equal((await first.waitForType('error', { from })).message, "unknown plugin command 'proj-cmd'");

    from = first.events.length;
    first.send({ type: 'plugin_trust_decisions', decisions: { proj: 'maybe', other: 'yes' } });
    assert.equal(
      (await first.waitForType('error', { from })).message,
      'plugin_trust_decisions: invalid value for proj, other (expected "trust" or "deny")',
    );

    from = first.events.length;
    first.send({ type: 'plugin_trust_decisions', decisions: { proj: 'trust', nobody: 'deny' } });
    const applied = await first.waitForType('plugin_trust_applied', { from });
    assert.deepEqual([applied.trusted, applied.denied, applied.loaded], [['proj'], [], 1]);
    const list = await first.waitForType('plugins_list', { from });
    assert.deepEqual(
      list.plugins.map((p: any) => [p.name, p.scope]),
      [['proj', 'workspace']],
    );
    const store = JSON.parse(readFileSync(join(home, '.config', 'catalyst-code', 'plugin-trust.json'), 'utf8'));
    assert.deepEqual(store.projects[realpathSync(workspace)], { [key]: 'trust' });

    from = first.events.length;
    first.send({ type: 'plugin_command', name: 'proj-cmd' });
    assert.equal((await first.waitForType('info', { from })).message, 'ran');
  } finally {
    await first.close();
  }
  const second = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await second.handshake();
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [['proj'], []]);
    await second.waitForType('agents');
    assert.equal(second.ofType('plugin_trust_prompt').length, 0, 'not asked again (agents comes after the prompt)');
  } finally {
    await second.close();
    second.cleanup();
  }
});

test('a trusted project plugin that fails to load says so with plugin_error; the one that loads does not', async () => {
  const workspace = tempDir('core-ws-');
  const home = tempDir('core-home-');
  writePlugin(workspacePluginsDir(workspace), 'proj', projectPlugin('proj'));
  // Its hook script lacks the x bit: the manifest is read, the load fails.
  writePlugin(workspacePluginsDir(workspace), 'noexec', {
    manifest: { name: 'noexec', version: '0.1.0', description: 'a hook without its x bit', hooks: { pre_tool: { script: 'h.js' } } },
    files: { 'h.js': ALLOW },
    plain: ['h.js'],
  });
  const core = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await core.handshake();
    assert.deepEqual(ready.plugins_skipped, ['noexec', 'proj']);
    const from = core.events.length;
    core.send({ type: 'plugin_trust_decisions', decisions: { proj: 'trust', noexec: 'trust' } });
    const list = await core.waitForType('plugins_list', { from });
    const answer = core.events.slice(from, core.events.indexOf(list) + 1);
    assert.deepEqual(
      answer.map((e) => e.type),
      ['plugin_trust_applied', 'plugin_error', 'plugins_list'],
    );
    const [applied, error] = answer;
    assert.deepEqual([applied.trusted, applied.denied, applied.loaded], [['proj', 'noexec'], [], 1]);
    assert.deepEqual(
      { name: error.name, message: error.message },
      { name: 'noexec', message: 'failed to load plugin in "noexec": hook script "h.js" is not executable (try chmod +x)' },
    );
    assert.deepEqual(
      list.plugins.map((p: any) => p.name),
      ['proj'],
    );
  } finally {
    await core.close();
    core.cleanup();
  }
});

test('a denied project plugin never loads and is not asked about again; the prompt command still lists it as denied', async () => {
  const workspace = tempDir('core-ws-');
  const home = tempDir('core-home-');
  writePlugin(workspacePluginsDir(workspace), 'nope', projectPlugin('nope'));
  writePlugin(workspacePluginsDir(workspace), 'later', projectPlugin('later'));
  const first = CoreProcess.start({ workspace, home });
  try {
    await first.handshake();
    const from = first.events.length;
    first.send({ type: 'plugin_trust_decisions', decisions: { nope: 'deny' } });
    const applied = await first.waitForType('plugin_trust_applied', { from });
    assert.deepEqual([applied.trusted, applied.denied, applied.loaded], [[], ['nope'], 0]);
  } finally {
    await first.close();
  }
  const second = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await second.handshake();
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [[], ['later']]);
    const prompt = await second.waitForType('plugin_trust_prompt');
    assert.deepEqual(
      prompt.plugins.map((p: any) => [p.name, p.decision]),
      [
        ['later', ''],
        ['nope', 'deny'],
      ],
    );
    const from = second.events.length;
    second.send({ type: 'plugin_trust_decisions', decisions: { later: 'deny' } });
    await second.waitForType('plugin_trust_applied', { from });
    second.send({ type: 'list_plugins' });
    assert.deepEqual((await second.waitForType('plugins_list', { from })).plugins, []);
  } finally {
    await second.close();
  }
  const third = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await third.handshake();
    assert.deepEqual(ready.plugins_skipped, []);
    await third.waitForType('agents');
    assert.equal(third.ofType('plugin_trust_prompt').length, 0);
    const from = third.events.length;
    third.send({ type: 'plugin_trust_prompt' });
    const listed = await third.waitForType('plugin_trust_prompt', { from });
    assert.deepEqual(
      listed.plugins.map((p: any) => [p.name, p.decision]),
      [
        ['later', 'deny'],
        ['nope', 'deny'],
      ],
    );
  } finally {
    await third.close();
    third.cleanup();
  }
});

test('--trust-project-plugins and CATALYST_CODE_TRUST_PROJECT_PLUGINS load project plugins unasked; project config cannot', async () => {
  for (const opts of [{ args: ['--trust-project-plugins'] }, { env: { CATALYST_CODE_TRUST_PROJECT_PLUGINS: '1' } }]) {
    const workspace = tempDir('core-ws-');
    writePlugin(workspacePluginsDir(workspace), 'proj', projectPlugin('proj'));
    const core = CoreProcess.start({ workspace, ...opts });
    try {
      const { ready } = await core.handshake();
      assert.deepEqual([ready.plugins, ready.plugins_skipped], [['proj'], []]);
      await core.waitForType('agents');
      assert.equal(core.ofType('plugin_trust_prompt').length, 0);
    } finally {
      await core.close();
      core.cleanup();
    }
  }
  const workspace = tempDir('core-ws-');
  writePlugin(workspacePluginsDir(workspace), 'proj', projectPlugin('proj'));
  writeFileSync(join(workspace, 'settings.json'), JSON.stringify({ trust_project_plugins: true, trustProjectPlugins: true }));
  const core = CoreProcess.start({ workspace });
  try {
    const { ready } = await core.handshake();
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [[], ['proj']]);
  } finally {
    await core.close();
    core.cleanup();
  }
});

test('a same-named workspace plugin replaces the global one (once trusted), and the global one is not asked about', async () => {
  const workspace = tempDir('core-ws-');
  const home = tempDir('core-home-');
  writePlugin(globalPluginsDir(home), 'shared', {
    ...projectPlugin('shared'),
    manifest: { ...projectPlugin('shared').manifest, version: 'global' },
  });
  writePlugin(workspacePluginsDir(workspace), 'shared', {
    ...projectPlugin('shared'),
    manifest: { ...projectPlugin('shared').manifest, version: 'project' },
  });
  const core = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await core.handshake();
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [['shared'], []], 'the global one loads; no prompt for a shadowed name');
    await core.waitForType('agents');
    assert.equal(core.ofType('plugin_trust_prompt').length, 0);
    const from = core.events.length;
    core.send({ type: 'plugin_trust_decisions', decisions: { shared: 'trust' } });
    const list = await core.waitForType('plugins_list', { from });
    assert.deepEqual(
      list.plugins.map((p: any) => [p.name, p.version, p.scope]),
      [['shared', 'project', 'workspace']],
    );
  } finally {
    await core.close();
    core.cleanup();
  }
});

test('manifest validation: upstream texts for a bad kind, a missing x bit, an escaping script, a reserved command, capabilities', async () => {
  const source = tempDir('plugin-src-');
  const bad = (name: string, manifest: Record<string, unknown>, files: Record<string, string> = {}, plain: string[] = []) =>
    writePlugin(source, name, { manifest: { name, version: '1', ...manifest }, files, plain });
  const cases: Array<[string, string]> = [
    [
      bad('kind', { tools: [{ name: 'x', script: 't.js', kind: 'dangerous' }] }, { 't.js': ALLOW }),
      "tool 'x' has invalid kind 'dangerous' (use 'readonly' or 'destructive')",
    ],
    [
      bad('noexec', { hooks: { pre_tool: { script: 'h.js' } } }, { 'h.js': ALLOW }, ['h.js']),
      'hook script "h.js" is not executable (try chmod +x)',
    ],
    [bad('escape', { hooks: { pre_tool: { script: '../h.js' } } }), 'hook script "../h.js" escapes the plugin directory'],
    [bad('missing', { tools: [{ name: 'x', script: 'nothere.js' }] }), 'script "nothere.js" does not exist'],
    [
      bad('reserved', { commands: [{ name: '/help', script: 'c.js' }] }, { 'c.js': ALLOW }),
      "command 'help' collides with a reserved builtin slash command",
    ],
    [bad('newer', { protocol_version: 2 }), 'plugin protocol version 2 is newer than supported (1)'],
    [
      bad('caps', { capabilities: ['register_commands'], commands: [{ name: 'c', script: 'c.js' }] }, { 'c.js': ALLOW }),
      'plugin is denied because its manifest is missing required capabilities: execute_subprocess',
    ],
    [bad('unknowncap', { capabilities: ['fly'] }), 'plugin declares unknown capabilities: fly'],
    [bad('emptytool', { tools: [{ name: '', script: 'x' }] }), 'plugin declares a tool with an empty name'],
    [writePlugin(source, 'noname', { manifest: { version: '1' } }), 'plugin.json parse error: missing field `name`'],
  ];
  const core = CoreProcess.start();
  try {
    await core.handshake();
    for (const [path, message] of cases) {
      const from = core.events.length;
      core.send({ type: 'install_plugin', path });
      const error = await core.waitForType('plugin_error', { from });
      assert.deepEqual([error.name, error.message], [path, message]);
    }
    let from = core.events.length;
    core.send({ type: 'install_plugin', path: 'someone/some-plugin@v1.0.0' });
    assert.match((await core.waitForType('plugin_error', { from })).message, /^this core cannot download plugins yet/);
    from = core.events.length;
    core.send({ type: 'install_plugin', path: join(source, 'nowhere') });
    assert.equal(
      (await core.waitForType('plugin_error', { from })).message,
      `${JSON.stringify(join(source, 'nowhere'))} is not a directory`,
    );

    writePlugin(globalPluginsDir(core.home), 'broken', { manifest: { name: 'broken', version: '1', tools: [{ name: '', script: 'x' }] } });
    writePlugin(globalPluginsDir(core.home), 'fine', projectPlugin('fine'));
    from = core.events.length;
    core.send({ type: 'reload_plugins' });
    const info = await core.waitFor((e) => e.type === 'info' && e.message.startsWith('plugins reloaded'), { from });
    assert.equal(info.message, 'plugins reloaded: 1 loaded, 0 skipped, 1 errors');
  } finally {
    await core.close();
    core.cleanup();
  }
});

test('disable and enable are in memory; remove deletes the plugin folder, and only unlinks a symlinked one', async () => {
  const outside = tempDir('plugin-outside-');
  const target = writePlugin(outside, 'linked', projectPlugin('linked'));
  const home = tempDir('core-home-');
  mkdirSync(globalPluginsDir(home), { recursive: true });
  symlinkSync(target, join(globalPluginsDir(home), 'linked'));
  writePlugin(globalPluginsDir(home), 'plain', projectPlugin('plain'));
  const core = CoreProcess.start({ home });
  try {
    const { ready } = await core.handshake();
    assert.deepEqual(ready.plugins, ['linked', 'plain']);
    let from = core.events.length;
    core.send({ type: 'disable_plugin', name: 'plain' });
    await core.waitForType('plugin_disabled', { from });
    core.send({ type: 'list_plugin_commands' });
    const commands = await core.waitForType('plugin_commands', { from });
    assert.deepEqual(
      commands.commands.map((c: any) => c.name),
      ['linked-cmd'],
    );
    core.send({ type: 'plugin_command', name: 'plain-cmd' });
    assert.equal((await core.waitForType('error', { from })).message, "unknown plugin command 'plain-cmd'");

    from = core.events.length;
    core.send({ type: 'reload_plugins' });
    const list = await core.waitForType('plugins_list', { from });
    assert.deepEqual(
      list.plugins.map((p: any) => [p.name, p.enabled]),
      [
        ['linked', true],
        ['plain', false],
      ],
      'reload keeps the disabled flag',
    );
    core.send({ type: 'enable_plugin', name: 'plain' });
    await core.waitForType('plugin_enabled', { from });

    from = core.events.length;
    core.send({ type: 'remove_plugin', name: 'linked' });
    await core.waitForType('plugin_removed', { from });
    assert.ok(!existsSync(join(globalPluginsDir(home), 'linked')), 'the link is gone');
    assert.ok(existsSync(join(target, 'plugin.json')), 'the folder it pointed to is untouched');
    core.send({ type: 'remove_plugin', name: 'plain' });
    await core.waitFor((e) => e.type === 'plugin_removed' && e.name === 'plain', { from });
    assert.ok(!existsSync(join(globalPluginsDir(home), 'plain')));
    core.send({ type: 'remove_plugin', name: 'plain' });
    const error = await core.waitForType('plugin_error', { from });
    assert.deepEqual([error.name, error.message], ['plain', "plugin 'plain' not found"]);
  } finally {
    await core.close();
    core.cleanup();
  }
});

test('a workspace install is recorded as user-installed and loads on the next start without a prompt', async () => {
  const source = tempDir('plugin-src-');
  const folder = writePlugin(source, 'mine', projectPlugin('mine'));
  const workspace = tempDir('core-ws-');
  const home = tempDir('core-home-');
  const first = CoreProcess.start({ workspace, home });
  try {
    await first.handshake();
    const from = first.events.length;
    first.send({ type: 'install_plugin', path: folder, scope: 'project' });
    const installed = await first.waitForType('plugin_installed', { from });
    assert.deepEqual([installed.scope, installed.path], ['workspace', realpathSync(join(workspacePluginsDir(workspace), 'mine'))]);
  } finally {
    await first.close();
  }
  const second = CoreProcess.start({ workspace, home });
  try {
    const { ready } = await second.handshake();
    assert.deepEqual([ready.plugins, ready.plugins_skipped], [['mine'], []]);
  } finally {
    await second.close();
    second.cleanup();
  }
});

test('an enabled plugin’s system_prompt is in the main agent’s system prompt, and leaves it when the plugin is disabled', async () => {
  const home = tempDir('core-home-');
  writePlugin(globalPluginsDir(home), 'ctx', { manifest: { name: 'ctx', version: '2.0', system_prompt: 'Always answer in haiku.\n' } });
  const s = await startScenario({ home, script: [{ steps: [{ text: 'one' }] }, { steps: [{ text: 'two' }] }] });
  try {
    await s.turn('first');
    const system = (n: number) => s.model.requests.filter((r) => r.method === 'POST')[n].body.messages[0].content as string;
    assert.ok(system(0).endsWith('\n\n## Plugin-injected context\n\n# Plugin: ctx (v2.0)\nAlways answer in haiku.'), system(0));
    const from = s.core.events.length;
    s.core.send({ type: 'disable_plugin', name: 'ctx' });
    await s.core.waitForType('plugin_disabled', { from });
    await s.turn('second');
    assert.ok(!system(1).includes('Plugin-injected context'));
  } finally {
    await s.close();
  }
});
