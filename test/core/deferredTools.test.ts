import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startScenario, type Scenario } from '../support/coreScenario';

const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const say = (text: string) => ({ steps: [{ text }] });
const offered = (request: { body: any }): string[] => (request.body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
const resultOf = (events: any[], id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);
const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

function configureIdentity(s: Scenario): void {
  git(s.core.workspace, 'config', 'user.name', 'Core Test');
  git(s.core.workspace, 'config', 'user.email', 'core@example.com');
}

test('deferred tools are offered only after load_tools names them or their group, for the session only', async () => {
  const s = await startScenario({
    git: true,
    files: { 'a.txt': 'one\n' },
    script: [
      call('s0', 'git_status', {}),
      call('l1', 'load_tools', { tools: ['git', 'nope'] }),
      call('s1', 'git_status', {}),
      say('status seen'),
      say('new session'),
    ],
  });
  try {
    const events = await s.turn('what changed?');
    assert.ok(!offered(chatRequests(s)[0]).includes('git_status'), 'not offered before load_tools');
    assert.ok(offered(chatRequests(s)[0]).includes('load_tools'));
    assert.equal(resultOf(events, 's0').status, 'failed');
    assert.match(resultOf(events, 's0').output, /^tool 'git_status' is deferred and not enabled this session\. Call load_tools/);
    const load = resultOf(events, 'l1');
    assert.equal(load.ok, false, 'an unknown name is a tool error');
    assert.match(
      load.output,
      /^Enabled: git_add, git_commit, git_diff, git_log, git_status\nUnknown tools: nope\. Valid names: .*git_status/,
    );
    assert.ok(offered(chatRequests(s)[2]).includes('git_commit'), 'offered on the next model round of the same turn');
    assert.equal(resultOf(events, 's1').output, '## main');

    const from = s.core.events.length;
    s.core.send({ type: 'new_session' });
    await s.core.waitForType('session_changed', { from });
    await s.turn('hello');
    assert.ok(!offered(chatRequests(s).at(-1)!).includes('git_status'), 'a new session starts without the loaded tools');
  } finally {
    await s.close();
  }
});

test('git_commit runs only once approved: a denied commit leaves the repository as it was', async () => {
  const s = await startScenario({
    git: true,
    files: { 'a.txt': 'one\n' },
    script: [
      call('l1', 'load_tools', { tool: 'git' }),
      {
        steps: [
          { toolCall: { id: 'g1', name: 'git_add', arguments: { paths: ['b.txt'] } } },
          { toolCall: { id: 'c1', name: 'git_commit', arguments: { message: 'add b' } } },
        ],
      },
      say('denied'),
      call('c2', 'git_commit', { message: 'add b' }),
      say('committed'),
    ],
  });
  try {
    configureIdentity(s);
    execFileSync('sh', ['-c', 'echo bee > b.txt'], { cwd: s.core.workspace });
    const head = git(s.core.workspace, 'rev-parse', 'HEAD');
    const denied = await s.turnAnswering('commit b', ['yes', 'no']);
    assert.deepEqual(
      denied.filter((e) => e.type === 'approval_request').map((e) => e.tool),
      ['git_add', 'git_commit'],
    );
    assert.equal(resultOf(denied, 'g1').ok, true);
    assert.equal(resultOf(denied, 'c1').status, 'denied');
    assert.equal(git(s.core.workspace, 'rev-parse', 'HEAD'), head, 'no commit after the denial');
    assert.equal(git(s.core.workspace, 'diff', '--cached', '--name-only'), 'b.txt\n', 'the approved git_add staged b.txt');

    const approved = await s.turnAnswering('commit it now', ['yes']);
    assert.equal(resultOf(approved, 'c2').ok, true, resultOf(approved, 'c2').output);
    assert.equal(git(s.core.workspace, 'log', '-1', '--format=%s'), 'add b\n');
    assert.equal(git(s.core.workspace, 'show', '--name-only', '--format=', 'HEAD'), 'b.txt\n');
  } finally {
    await s.close();
  }
});

test('git path arguments are confined like the file tools', async () => {
  const s = await startScenario({
    git: true,
    approval: 'never',
    script: [
      call('l1', 'load_tools', { tool: 'git' }),
      call('d1', 'git_diff', { path: '../..' }),
      call('a1', 'git_add', { paths: ['/etc/passwd'] }),
      say('refused'),
    ],
  });
  try {
    const events = await s.turn('escape');
    for (const id of ['d1', 'a1']) {
      assert.equal(resultOf(events, id).status, 'failed', id);
      assert.match(resultOf(events, id).output, /^refused: /, id);
    }
  } finally {
    await s.close();
  }
});
