import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { ChildScope } from '../runtime/childScope';
import { RunScope } from '../runtime/runScope';
import { ENDED_RUNS_KEPT, SubagentRegistry } from './subagentRegistry';

const broker = () => new ApprovalBroker({ onExpired: () => undefined });

function add(registry: SubagentRegistry, root: RunScope, runId: string, parent?: ChildScope): ChildScope {
  const scope = new ChildScope(
    runId,
    parent?.runId ?? root.runId,
    root,
    `subagent-w-${runId.replaceAll('-', '')}`,
    1,
    (parent ?? root).signal,
  );
  registry.add({ scope, agent: 'w', agents: ['w'], mode: 'single', task: 't' });
  return scope;
}

test('cancelTree stops the live children of one root only, and their pending approvals can no longer be answered', async () => {
  const registry = new SubagentRegistry();
  const b = broker();
  const rootA = new RunScope('s', 'turn-a', 'turn');
  const rootB = new RunScope('s', 'turn-b', 'turn');
  const a = add(registry, rootA, 'run-1');
  const other = add(registry, rootB, 'run-2');
  const wait = b.wait(
    { requestId: 'apv-1', toolCallId: 'call_1', tool: 'write_file', runId: a.target, createdAt: Date.now() },
    new AbortController().signal,
  );
  assert.deepEqual(
    registry.cancelTree(b, rootA).map((r) => r.runId),
    ['run-1'],
  );
  assert.equal(a.cancelled, true);
  assert.equal(other.cancelled, false);
  assert.deepEqual(await wait, { decision: 'no', cancelled: true });
  assert.equal(b.answer('apv-1', { decision: 'yes' }).ok, false);
});

test('interrupt pauses one run and stops its subtree, not its siblings', () => {
  const registry = new SubagentRegistry();
  const root = new RunScope('s', 'turn-a', 'turn');
  const batch = add(registry, root, 'run-1');
  const child = add(registry, root, 'run-1-0', batch);
  const sibling = add(registry, root, 'run-2');
  assert.equal(registry.interrupt(broker(), 'run-1'), true);
  assert.equal(registry.get('run-1')?.state, 'paused');
  assert.deepEqual([batch.cancelled, child.cancelled, sibling.cancelled], [true, true, false]);
  assert.equal(registry.interrupt(broker(), 'run-9'), false);
});

test(`ended runs are kept for status and peek, the oldest evicted past ${ENDED_RUNS_KEPT}; live runs are never evicted`, () => {
  const registry = new SubagentRegistry();
  const root = new RunScope('s', 'turn-a', 'turn');
  add(registry, root, 'run-live');
  for (let i = 0; i < ENDED_RUNS_KEPT + 2; i++) {
    add(registry, root, `run-e${i}`);
    registry.end(`run-e${i}`, 'completed');
  }
  const ids = registry.list().map((r) => r.runId);
  assert.equal(ids.length, ENDED_RUNS_KEPT + 1);
  assert.ok(ids.includes('run-live') && !ids.includes('run-e0') && !ids.includes('run-e1') && ids.includes('run-e2'));
  assert.ok(registry.live('run-live'));
  assert.equal(registry.live('run-e5'), undefined);
});
