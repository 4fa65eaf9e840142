import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../shared/sessionState';
import { undecidedTrust } from '../../shared/pluginState';
import { sessionReducer } from './sessionReducer';

function run(events: object[], s0: SessionState = initialSessionState()): SessionState {
  return events.reduce<SessionState>((s, e) => sessionReducer(s, e as never), s0);
}

const PROJECT = '/ws/.catalyst-code/plugins/lint';

test('plugins: ready, the trust prompt, the decision applied, then the lists the core sends after it', () => {
  const s1 = run([
    { type: 'ready', plugins: ['greet'], plugins_skipped: ['lint'] },
    {
      type: 'plugin_trust_prompt',
      plugins: [
        { name: 'lint', version: '1.0.0', description: 'Lints', path: PROJECT, decision: '' },
        { name: 'old', version: '0.1.0', description: '', path: '/ws/.catalyst-code/plugins/old', decision: 'deny' },
        { name: '', path: '/x' },
        'garbage',
      ],
    },
  ]);
  assert.deepEqual(s1.plugins?.skipped, ['lint']);
  assert.deepEqual(
    undecidedTrust(s1.plugins).map((t) => t.path),
    [PROJECT],
  );
  const s2 = run(
    [
      { type: 'plugin_trust_applied', trusted: [PROJECT], denied: [], loaded: 2 },
      {
        type: 'plugins_list',
        plugins: [
          {
            name: 'lint',
            version: '1.0.0',
            enabled: true,
            description: 'Lints',
            hooks: ['pre_bash'],
            tools: ['lint_run'],
            commands: ['lint'],
            path: PROJECT,
            scope: 'workspace',
          },
          {
            name: 'greet',
            version: '2.0.0',
            enabled: true,
            description: '',
            hooks: [],
            tools: [],
            commands: [],
            path: '/h/greet',
            scope: 'global',
          },
        ],
      },
      {
        type: 'plugin_commands',
        commands: [{ name: '/lint', description: 'Run the linter', plugin: 'lint', mode: 'script' }, { name: 'bad name' }],
      },
    ],
    s1,
  );
  assert.deepEqual(undecidedTrust(s2.plugins), []);
  assert.equal(s2.plugins?.trust.find((t) => t.path === PROJECT)?.decision, 'trust');
  assert.deepEqual(s2.plugins?.skipped, []);
  assert.deepEqual(
    s2.plugins?.list.map((p) => `${p.name}:${p.scope}:${p.tools.join(',')}`),
    ['greet:global:', 'lint:workspace:lint_run'],
  );
  assert.deepEqual(s2.plugins?.loaded, ['greet', 'lint']);
  assert.deepEqual(s2.plugins?.commands, [{ name: 'lint', description: 'Run the linter', plugin: 'lint', mode: 'script' }]);
  const notice = s2.items.find((i) => i.kind === 'notice');
  assert.equal(notice?.kind === 'notice' && notice.text, 'Plugins: trusted lint.');
});

test('plugins: an undecided entry already loaded (a workspace install) is not asked about', () => {
  const s = run([
    { type: 'ready', plugins: ['lint'], plugins_skipped: [] },
    { type: 'plugin_trust_prompt', plugins: [{ name: 'lint', version: '1', description: '', path: PROJECT, decision: '' }] },
  ]);
  assert.deepEqual(undecidedTrust(s.plugins), []);
  assert.equal(s.plugins?.trust.length, 1);
});

test('plugins: disable, enable, remove and install patch the list; errors and status lines become notices', () => {
  const listed = run([
    {
      type: 'plugins_list',
      plugins: [
        {
          name: 'lint',
          version: '1',
          enabled: true,
          description: '',
          hooks: [],
          tools: [],
          commands: ['lint'],
          path: PROJECT,
          scope: 'workspace',
        },
      ],
    },
    { type: 'plugin_commands', commands: [{ name: 'lint', description: '', plugin: 'lint', mode: 'agent_turn' }] },
  ]);
  const disabled = run([{ type: 'plugin_disabled', name: 'lint' }], listed);
  assert.equal(disabled.plugins?.list[0].enabled, false);
  assert.equal(run([{ type: 'plugin_disabled', name: 'lint' }], disabled), disabled, 'the same flag again changes nothing');
  assert.equal(run([{ type: 'plugin_enabled', name: 'lint' }], disabled).plugins?.list[0].enabled, true);
  const removed = run([{ type: 'plugin_removed', name: 'lint' }], disabled);
  assert.deepEqual(removed.plugins?.list, []);
  assert.deepEqual(removed.plugins?.commands, []);
  const installed = run(
    [
      {
        type: 'plugin_installed',
        name: 'fmt',
        version: '0.2.0',
        description: 'Formats',
        path: '/h/fmt',
        scope: 'global',
        hooks: ['post_write'],
      },
    ],
    removed,
  );
  assert.deepEqual(
    installed.plugins?.list.map((p) => [p.name, p.scope, p.enabled, p.hooks]),
    [['fmt', 'global', true, ['post_write']]],
  );
  const noticed = run(
    [
      { type: 'plugin_error', name: '/tmp/x', message: 'no plugin.json found in "/tmp/x"' },
      { type: 'plugin_status', plugin: 'fmt', text: 'formatted 2 files' },
      { type: 'plugin_status', plugin: 'fmt', text: 42 },
    ],
    installed,
  );
  const texts = noticed.items.flatMap((i) => (i.kind === 'notice' ? [`${i.level}:${i.text}`] : []));
  assert.deepEqual(texts.slice(-2), ['error:Plugin /tmp/x: no plugin.json found in "/tmp/x"', 'info:[fmt] formatted 2 files']);
});

test('plugins: a core without plugins leaves the state without them', () => {
  const s = run([{ type: 'ready', models: [] }]);
  assert.equal(s.plugins, undefined);
});
