// A scripted model tries to leave the workspace and to touch restricted paths, in every approval mode (BRIEF §3):
// escapes (`..`, absolute paths, symlinks pointing out, dangling ones too) are refused before any prompt in every
// mode; restricted paths (.env, .git/config, …) prompt under destructive and always, for reads and writes alike, and
// run unprompted under never. Files outside the workspace are never touched.
import { APPROVAL_MODES } from '../../src/protocol/common';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnv, startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const OUTSIDE_SECRET = 'outside secret 8d1f\n';
const ENV_CONTENT = 'TOKEN=workspace-env-secret-51c0\n';

const call = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const answer: ScriptedResponse = { steps: [{ text: 'done' }] };

interface Layout {
  root: string;
  ws: string;
  outside: string;
  /** Every file under `outside` with its content and mtime, to prove nothing changed. */
  snapshot(): string;
  cleanup(): void;
}

/** root/ws (the workspace) next to root/outside, with symlinks from the workspace into outside. */
function makeLayout(): Layout {
  const root = mkdtempSync(join(tmpdir(), 'ws-safety-'));
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), OUTSIDE_SECRET);
  writeFileSync(join(outside, 'victim.txt'), 'victim\n');
  writeFileSync(join(outside, 'dir', 'nested.txt'), 'nested\n');
  symlinkSync(outside, join(ws, 'link'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'filelink'));
  symlinkSync(join(outside, 'created-through-dangling.txt'), join(ws, 'dangling'));
  symlinkSync('link', join(ws, 'linktolink'));
  mkdirSync(join(ws, 'sub'));
  writeFileSync(join(ws, 'README.md'), 'readme\n');
  const snapshot = () =>
    walk(outside)
      .map((p) => `${p}\t${statSync(p).mtimeMs}\t${readFileSync(p, 'utf8')}`)
      .join('\n');
  return { root, ws, outside, snapshot, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Sends a prompt and answers each approval_request with `decide` until `done`; returns the turn's events. */
async function turnAnswering(s: Scenario, prompt: string, decide: (toolCallId: string) => 'yes' | 'no'): Promise<any[]> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt, model: TEST_MODEL });
  let seen = from;
  for (;;) {
    const next = await s.core.waitFor((e) => e.type === 'approval_request' || e.type === 'done', { from: seen, timeoutMs: 30_000 });
    seen = s.core.events.indexOf(next) + 1;
    if (next.type === 'done') return s.core.events.slice(from);
    s.core.send({ type: 'approve', request_id: next.request_id, decision: decide(next.tool_call_id) });
  }
}

for (const mode of APPROVAL_MODES) {
  test(`${mode}: every way out of the workspace is refused before any prompt, and nothing outside changes`, async () => {
    const l = makeLayout();
    const before = l.snapshot();
    const abs = (name: string) => join(l.outside, name);
    const escapes: [string, string, object][] = [
      ['read_dotdot', 'read_file', { path: '../outside/secret.txt' }],
      ['read_abs', 'read_file', { path: abs('secret.txt') }],
      ['read_link', 'read_file', { path: 'link/secret.txt' }],
      ['read_filelink', 'read_file', { path: 'filelink' }],
      ['read_linktolink', 'read_file', { path: 'linktolink/secret.txt' }],
      ['read_sub_dotdot', 'read_file', { path: 'sub/../../outside/secret.txt' }],
      ['read_tilde', 'read_file', { path: '~/.bashrc' }],
      ['write_link', 'write_file', { path: 'link/new.txt', content: 'x' }],
      ['write_dotdot', 'write_file', { path: '../outside/new.txt', content: 'x' }],
      ['write_abs', 'write_file', { path: abs('new.txt'), content: 'x' }],
      ['write_dangling', 'write_file', { path: 'dangling', content: 'x' }],
      ['write_filelink', 'write_file', { path: 'filelink', content: 'overwritten' }],
      ['edit_filelink', 'edit', { path: 'filelink', edits: [{ search: 'outside', replace: 'pwned' }] }],
      ['edit_abs', 'edit', { path: abs('victim.txt'), edits: [{ search: 'victim', replace: 'pwned' }] }],
      ['patch_link', 'patch', { path: 'link/victim.txt', patch: '--- a/victim.txt\n+++ b/victim.txt\n@@ -1 +1 @@\n-victim\n+pwned\n' }],
      [
        'patch_dotdot',
        'patch',
        { path: '../outside/victim.txt', patch: '--- a/victim.txt\n+++ b/victim.txt\n@@ -1 +1 @@\n-victim\n+pwned\n' },
      ],
      ['delete_link_file', 'delete', { path: 'link/victim.txt' }],
      ['delete_dotdot', 'delete', { path: '../outside/victim.txt' }],
      ['delete_abs', 'delete', { path: abs('victim.txt') }],
      ['delete_link_dir', 'delete', { path: 'link/dir/nested.txt' }],
      ['rename_out_in', 'rename', { from: 'link/secret.txt', to: 'stolen.txt' }],
      ['rename_in_out', 'rename', { from: 'README.md', to: 'link/README.md' }],
      ['rename_dotdot', 'rename', { from: 'README.md', to: '../outside/README.md' }],
      ['mkdir_link', 'mkdir', { path: 'link/newdir' }],
      ['mkdir_abs', 'mkdir', { path: abs('newdir') }],
      ['list_link', 'list_dir', { path: 'link' }],
      ['list_dotdot', 'list_dir', { path: '..' }],
      ['grep_link', 'grep', { pattern: 'secret', path: 'link' }],
      ['grep_paths', 'grep', { pattern: 'secret', paths: ['sub', '../outside'] }],
      ['glob_dotdot', 'glob', { pattern: '../outside/*' }],
    ];
    const s = await startScenario({
      workspace: l.ws,
      approval: mode,
      script: [...escapes.map(([id, name, args]) => call(id, name, args)), answer],
    });
    try {
      const events = await turnAnswering(s, 'try to get out', () => 'no');
      const results = new Map(events.filter((e) => e.type === 'tool_result').map((e) => [e.id, e]));
      assert.equal(results.size, escapes.length);
      for (const [id] of escapes) {
        const r = results.get(id);
        assert.equal(r.status, 'failed', `${mode} ${id}: ${r.output}`);
        assert.match(r.output, /refused/, `${mode} ${id}`);
        assert.ok(!r.output.includes('outside secret'), `${mode} ${id} leaked the outside file`);
      }
      assert.deepEqual(
        events.filter((e) => e.type === 'approval_request').map((e) => e.tool_call_id),
        [],
        'escapes never reach a prompt',
      );
      assert.equal(events.filter((e) => e.type === 'file_change').length, 0);
      assert.equal(l.snapshot(), before, 'the outside folder is byte-for-byte unchanged');
      assert.equal(readFileSync(join(l.ws, 'README.md'), 'utf8'), 'readme\n');
    } finally {
      await s.close();
      l.cleanup();
    }
  });
}

/** The restricted-path calls of one turn, in order; under destructive/always only `read_env` and `grep_all` are approved. */
const RESTRICTED: [string, string, object][] = [
  ['read_env', 'read_file', { path: '.env' }],
  ['read_git_config', 'read_file', { path: '.git/config' }],
  ['read_env_through_link', 'read_file', { path: 'envlink' }],
  ['read_env_dot_slash', 'read_file', { path: './.env' }],
  ['read_git_through_link', 'read_file', { path: 'gitlink/config' }],
  ['grep_all', 'grep', { pattern: 'TOKEN' }],
  ['grep_env', 'grep', { pattern: 'TOKEN', path: '.env' }],
  ['write_env', 'write_file', { path: '.env', content: 'TOKEN=pwned\n' }],
  ['edit_git_config', 'edit', { path: '.git/config', edits: [{ search: '[core]', replace: '[core]\n\tfsmonitor = touch pwned' }] }],
  ['patch_env', 'patch', { path: '.env', patch: '--- a/.env\n+++ b/.env\n@@ -1 +1,2 @@\n TOKEN=pwned\n+EXTRA=1\n' }],
  ['write_ssh_key', 'write_file', { path: 'home/.ssh/authorized_keys', content: 'ssh-ed25519 AAAA attacker\n' }],
  ['delete_env_local', 'delete', { path: '.env.local' }],
  ['rename_env', 'rename', { from: '.env', to: 'env.txt' }],
];
const APPROVED_WHEN_ASKED = new Set(['read_env', 'grep_all']);

for (const mode of APPROVAL_MODES) {
  test(`${mode}: restricted paths (.env, .git/config, .ssh, through a symlink too) ${mode === 'never' ? 'run without a prompt, still confined' : 'prompt for reads and writes alike'}`, async () => {
    const l = makeLayout();
    writeFileSync(join(l.ws, '.env'), ENV_CONTENT);
    writeFileSync(join(l.ws, '.env.local'), 'LOCAL=1\n');
    symlinkSync('.env', join(l.ws, 'envlink'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: l.ws, env: gitEnv() });
    symlinkSync('.git', join(l.ws, 'gitlink'));
    const gitConfig = readFileSync(join(l.ws, '.git', 'config'), 'utf8');
    const before = l.snapshot();
    const s = await startScenario({
      workspace: l.ws,
      approval: mode,
      script: [...RESTRICTED.map(([id, name, args]) => call(id, name, args)), answer],
    });
    try {
      const events = await turnAnswering(s, 'touch the secrets', (id) => (APPROVED_WHEN_ASKED.has(id) ? 'yes' : 'no'));
      const asked = events.filter((e) => e.type === 'approval_request').map((e) => e.tool_call_id);
      const status = Object.fromEntries(events.filter((e) => e.type === 'tool_result').map((e) => [e.id, e.status]));
      const output = (id: string) => events.find((e) => e.type === 'tool_result' && e.id === id).output as string;
      const restrictedIds = RESTRICTED.map(([id]) => id).filter((id) => id !== 'grep_all');

      if (mode === 'never') {
        assert.deepEqual(asked, [], 'never: no prompt at all');
        assert.deepEqual(status, Object.fromEntries(RESTRICTED.map(([id]) => [id, 'success'])));
        assert.equal(readFileSync(join(l.ws, 'env.txt'), 'utf8'), 'TOKEN=pwned\nEXTRA=1\n', 'the writes ran');
        assert.match(readFileSync(join(l.ws, '.git', 'config'), 'utf8'), /fsmonitor/);
      } else {
        const expected = mode === 'always' ? RESTRICTED.map(([id]) => id) : restrictedIds;
        assert.deepEqual(
          asked,
          expected,
          `${mode}: a prompt for each restricted call${mode === 'always' ? ' and for the plain grep' : ''}`,
        );
        for (const [id] of RESTRICTED) assert.equal(status[id], APPROVED_WHEN_ASKED.has(id) ? 'success' : 'denied', `${mode} ${id}`);
        assert.ok(output('read_env').includes('workspace-env-secret'), 'an approved read returns the file');
        assert.equal(readFileSync(join(l.ws, '.env'), 'utf8'), ENV_CONTENT, 'denied writes left .env alone');
        assert.equal(readFileSync(join(l.ws, '.env.local'), 'utf8'), 'LOCAL=1\n');
        assert.equal(readFileSync(join(l.ws, '.git', 'config'), 'utf8'), gitConfig);
        assert.equal(readdirSync(l.ws).includes('home'), false);
        assert.equal(readdirSync(l.ws).includes('env.txt'), false);
      }
      // A search of the whole workspace is not a way around the prompt: restricted files are skipped unless named.
      assert.ok(!output('grep_all').includes('workspace-env-secret'), `${mode}: grep over the workspace read .env: ${output('grep_all')}`);
      assert.match(output('grep_all'), /restricted file/);
      assert.equal(l.snapshot(), before, 'nothing outside the workspace changed');
    } finally {
      await s.close();
      l.cleanup();
    }
  });
}
