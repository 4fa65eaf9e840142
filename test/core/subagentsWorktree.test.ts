// A child in its own git worktree (issue #14): its changes come back as reviewable proposals `<callId>.<n>` (not
// upstream's silent overwrite), a file the user changed meanwhile is rebased or flagged, and the worktree and its
// branch are gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CoreEvent } from '../support/coreProcess';
import { gitEnv, startScenario, TEST_MODEL, type Scenario } from '../support/coreScenario';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const PARENT_CALL = 'call_wt';
const SCENARIO = { timeout: 60_000 };

const parentCalls = (args: object): ScriptedResponse[] => [
  { steps: [{ toolCall: { id: PARENT_CALL, name: 'subagent', arguments: args } }] },
  { steps: [{ text: 'Done.' }] },
];
const edit = (id: string, path: string, search: string, replace: string) => ({
  toolCall: { id, name: 'edit', arguments: { path, edits: [{ search, replace }] } },
});

const FILES = {
  'a.txt': 'one\ntwo\nthree\n',
  'b.txt': 'l1\nl2\nl3\nl4\nl5\n',
  'c.txt': 'same line\n',
};

test(
  'a worktree child: its changes are proposed back for review, rebased or flagged, the worktree and branch removed',
  SCENARIO,
  async () => {
    const s = await startScenario({
      git: true,
      files: FILES,
      script: parentCalls({ agent: 'worker', task: '[wt] change the three files', worktree: true }),
      routes: {
        '[wt]': [
          { steps: [edit('call_1', 'a.txt', 'two', 'TWO'), edit('call_2', 'b.txt', 'l1', 'L1'), edit('call_3', 'c.txt', 'same', 'child')] },
          { holdUntil: 'user-edits', steps: [{ text: 'changed a, b and c' }] },
        ],
      },
    });
    try {
      const from = s.core.events.length;
      s.core.send({ type: 'send', prompt: 'Let a worker change files in a worktree.', model: TEST_MODEL });
      const parentApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
      s.core.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });

      await s.model.held('user-edits');
      const ready = await s.core.waitForType('worktree_ready', { from });
      assert.equal(readFileSync(join(ready.path, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n', 'the child edited its worktree');
      assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), FILES['a.txt'], 'and not the main tree');
      writeFileSync(join(s.core.workspace, 'b.txt'), 'l1\nl2\nl3\nl4\nL5 by the user\n');
      writeFileSync(join(s.core.workspace, 'c.txt'), 'user line\n');
      s.model.release('user-edits');

      const proposals: CoreEvent[] = [];
      for (let n = 1; n <= 2; n++) {
        const proposal = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === `${PARENT_CALL}.${n}`, { from });
        proposals.push(proposal);
        s.core.send({ type: 'approve', request_id: proposal.request_id, decision: 'yes' });
      }
      await s.core.waitForType('done', { from, timeoutMs: 30_000 });
      const events = s.core.events.slice(from);

      const child = events.find((e) => e.type === 'subagent_start')!;
      assert.equal(ready.run_id, child.run_id);
      assert.equal(dirname(ready.path), join(s.core.workspace, '.catalyst-code', 'worktrees'));
      assert.equal(ready.branch, `catcode/wt/${basename(ready.path)}`);
      assert.ok(basename(ready.path).startsWith(`${child.run_id}-${s.core.child.pid}`), "named after the run and the core's pid");
      const childApprovals = events.filter((e) => e.type === 'approval_request' && /^call_\d$/.test(e.tool_call_id));
      assert.equal(childApprovals.length, 0, "under destructive the child's edits in its own worktree are not prompted");
      assert.ok(
        events.filter((e) => e.type === 'approval_request' && e.tool_call_id === `${PARENT_CALL}.3`).length === 0,
        'the conflicting file is not proposed',
      );

      assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n', "the child's change, approved");
      assert.equal(readFileSync(join(s.core.workspace, 'b.txt'), 'utf8'), 'L1\nl2\nl3\nl4\nL5 by the user\n', 'rebased on the user edit');
      assert.equal(readFileSync(join(s.core.workspace, 'c.txt'), 'utf8'), 'user line\n', 'a conflict never overwrites the user');
      const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
      assert.match(result.output, /^changed a, b and c\n\n/);
      assert.match(result.output, /Worktree changes applied: a\.txt, b\.txt \(rebased on your changes\)/);
      assert.match(result.output, /NOT proposed .*c\.txt \(conflicts with your changes\)/);
      assert.ok(events.some((e) => e.type === 'info' && /not proposed back: c\.txt/.test(e.message)));

      const order = events.flatMap((e) =>
        e.type.startsWith('worktree_') ||
        (e.type === 'subagent_done' && e.run_id === child.run_id) ||
        (e.type === 'tool_result' && e.id === PARENT_CALL)
          ? [e.type]
          : [],
      );
      assert.deepEqual(order, ['worktree_ready', 'subagent_done', 'worktree_promoted', 'worktree_cleaned', 'tool_result']);
      assert.deepEqual(events.find((e) => e.type === 'worktree_promoted')!.paths, ['a.txt', 'b.txt']);
      assert.equal(events.find((e) => e.type === 'worktree_cleaned')!.path, ready.path);
      assert.equal(existsSync(ready.path), false, 'the worktree directory is gone');
      const branches = execFileSync('git', ['branch', '--list', 'catcode/wt/*'], { cwd: s.core.workspace, env: gitEnv() }).toString();
      assert.equal(branches.trim(), '', 'and its branch');
      const worktrees = execFileSync('git', ['worktree', 'list'], { cwd: s.core.workspace, env: gitEnv() }).toString();
      assert.equal(worktrees.trim().split('\n').length, 1, 'git knows only the main worktree');
    } finally {
      await s.close();
    }
  },
);

test('worktree:true is refused outside git, before any child starts', SCENARIO, async () => {
  const s = await startScenario({
    approval: 'never',
    files: FILES,
    script: parentCalls({ agent: 'worker', task: '[no-git] change a file', worktree: true }),
    routes: { '[no-git]': [{ steps: [{ text: 'should not run' }] }] },
  });
  try {
    const events = await s.turn('Use a worktree.');
    const result = events.find((e) => e.type === 'tool_result' && e.id === PARENT_CALL)!;
    assert.deepEqual(
      [result.ok, result.output],
      [false, 'worktree:true requires a git repository; use hybrid checkpoints for non-git workspaces'],
    );
    assert.equal(events.filter((e) => e.type.startsWith('subagent_') || e.type.startsWith('worktree_')).length, 0);
    assert.equal(s.model.requestsFor('[no-git]').length, 0);
  } finally {
    await s.close();
  }
});

test('a parallel batch in worktrees: every worktree before any child, each child proposed back in input order', SCENARIO, async () => {
  const s = await startScenario({
    git: true,
    files: FILES,
    script: parentCalls({
      tasks: [
        { agent: 'worker', task: '[wt-a] change a.txt' },
        { agent: 'worker', task: '[wt-c] change c.txt' },
      ],
      worktree: true,
    }),
    routes: {
      '[wt-a]': [{ steps: [edit('call_1', 'a.txt', 'two', 'TWO')] }, { steps: [{ text: 'a done' }] }],
      '[wt-c]': [{ steps: [edit('call_1', 'c.txt', 'same', 'other')] }, { steps: [{ text: 'c done' }] }],
    },
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'Two workers, two worktrees.', model: TEST_MODEL });
    const parentApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
    s.core.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });
    const proposed: string[] = [];
    for (let n = 1; n <= 2; n++) {
      const proposal = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === `${PARENT_CALL}.${n}`, { from });
      proposed.push(JSON.parse(proposal.args).path);
      s.core.send({ type: 'approve', request_id: proposal.request_id, decision: 'yes' });
    }
    await s.core.waitForType('done', { from, timeoutMs: 30_000 });
    const events = s.core.events.slice(from);
    assert.deepEqual(proposed, ['a.txt', 'c.txt'], 'the children are proposed back in input order');
    const batch = events.find((e) => e.type === 'subagent_start' && e.mode === 'parallel')!;
    const readies = events.filter((e) => e.type === 'worktree_ready');
    assert.deepEqual(
      readies.map((e) => e.run_id),
      [`${batch.run_id}-0`, `${batch.run_id}-1`],
    );
    const firstChild = events.findIndex((e) => e.type === 'subagent_start' && e.mode === 'single');
    assert.ok(
      readies.every((e) => events.indexOf(e) < firstChild),
      'every worktree exists before any child starts',
    );
    assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
    assert.equal(readFileSync(join(s.core.workspace, 'c.txt'), 'utf8'), 'other line\n');
    assert.equal(events.filter((e) => e.type === 'worktree_cleaned').length, 2);
    assert.ok(readies.every((e) => !existsSync(e.path)));
    const branches = execFileSync('git', ['branch', '--list', 'catcode/wt/*'], { cwd: s.core.workspace, env: gitEnv() }).toString();
    assert.equal(branches.trim(), '');
  } finally {
    await s.close();
  }
});

/** Starts a worktree child that edits `file` in its worktree, then waits at `gate`; resolves with its worktree_ready. */
async function childHeldInWorktree(s: Scenario, gate: string): Promise<CoreEvent> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt: 'A worker in a worktree.', model: TEST_MODEL });
  const parentApproval = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === PARENT_CALL, { from });
  s.core.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });
  const outcome = await s.core.waitFor((e) => e.type === 'worktree_ready' || e.type === 'subagent_done', { from });
  assert.equal(outcome.type, 'worktree_ready', `the child got its worktree: ${JSON.stringify(outcome)}`);
  await s.model.held(gate);
  return outcome;
}

/** Lets the held child finish and approves its one proposal; resolves with the turn's events. */
async function finishChild(s: Scenario, gate: string): Promise<CoreEvent[]> {
  const from = s.core.events.length;
  s.model.release(gate);
  const proposal = await s.core.waitFor((e) => e.type === 'approval_request' && e.tool_call_id === `${PARENT_CALL}.1`, { from });
  s.core.send({ type: 'approve', request_id: proposal.request_id, decision: 'yes' });
  await s.core.waitForType('done', { from, timeoutMs: 30_000 });
  return s.core.answerSince(from);
}

test(
  'two cores on one workspace: worktree children at once, neither disturbs the other; the second start sweeps neither',
  SCENARIO,
  async () => {
    const script = (tag: string, file: string, search: string, gate: string) => ({
      script: parentCalls({ agent: 'worker', task: `${tag} change ${file}`, worktree: true }),
      routes: {
        [tag]: [{ steps: [edit('call_1', file, search, search.toUpperCase())] }, { holdUntil: gate, steps: [{ text: `${file} done` }] }],
      },
    });
    const first = await startScenario({ git: true, files: FILES, ...script('[core-1]', 'a.txt', 'two', 'first-held') });
    let second: Scenario | undefined;
    try {
      const firstReady = await childHeldInWorktree(first, 'first-held');
      // The second core starts (and sweeps) while the first one's child works in its worktree.
      second = await startScenario({ workspace: first.core.workspace, ...script('[core-2]', 'b.txt', 'l2', 'second-held') });
      const secondReady = await childHeldInWorktree(second, 'second-held');

      assert.equal(firstReady.run_id, secondReady.run_id, 'each core counts its runs from 1');
      assert.notEqual(secondReady.path, firstReady.path);
      assert.notEqual(secondReady.branch, firstReady.branch);
      // The second core's worktree_ready came after its start sweep (both take the worktree lock, the sweep first).
      assert.equal(readFileSync(join(firstReady.path, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n', "the first child's worktree is intact");
      assert.equal(readFileSync(join(secondReady.path, 'a.txt'), 'utf8'), FILES['a.txt'], 'and not shared with the second');
      assert.equal(readFileSync(join(secondReady.path, 'b.txt'), 'utf8'), 'l1\nL2\nl3\nl4\nl5\n');

      const secondEvents = await finishChild(second, 'second-held');
      assert.deepEqual(secondEvents.find((e) => e.type === 'worktree_promoted')?.paths, ['b.txt']);
      assert.equal(existsSync(firstReady.path), true, "the second core's clean-up leaves the first one's worktree");
      const firstEvents = await finishChild(first, 'first-held');
      assert.deepEqual(firstEvents.find((e) => e.type === 'worktree_promoted')?.paths, ['a.txt']);

      assert.equal(readFileSync(join(first.core.workspace, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
      assert.equal(readFileSync(join(first.core.workspace, 'b.txt'), 'utf8'), 'l1\nL2\nl3\nl4\nl5\n');
      const branches = execFileSync('git', ['branch', '--list', 'catcode/wt/*'], { cwd: first.core.workspace, env: gitEnv() }).toString();
      assert.equal(branches.trim(), '', 'both branches are gone');
    } finally {
      await second?.close();
      await first.close();
    }
  },
);
