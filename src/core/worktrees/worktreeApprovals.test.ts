import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import type { ApprovalMode } from '../config/config';
import { runToolCall, type GateDeps } from '../agent/toolGate';
import { coreTools, toolRulesMatchPaths } from '../app/allTools';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { Escalations } from '../approvals/escalations';
import { PermissionRules } from '../approvals/permissionRules';
import type { ChildEvent } from '../runtime/eventSink';

const OFFERED = new Set(['write_file', 'bash']);

/** A child's gate over a temp workspace; every approval it asks for is denied once announced. */
function childGate(mode: ApprovalMode, worktree: boolean) {
  const ws = makeTestWorkspace();
  const broker = new ApprovalBroker({ onExpired: () => undefined });
  const asked: string[] = [];
  const deps: GateDeps = {
    approvals: {
      mode,
      rules: new PermissionRules({ allow: [], deny: [], ask: [] }, toolRulesMatchPaths),
      escalations: new Escalations(),
      broker,
    },
    builtIns: coreTools,
    emit: (event: ChildEvent) => {
      if (event.type !== 'approval_request') return;
      asked.push(event.tool);
      setImmediate(() => broker.answer(event.request_id, { decision: 'no' }));
    },
    beforeDestructive: async () => undefined,
    toolContext: () => ws.context(),
    refuseTool: () => undefined,
    announce: { started: () => undefined, finished: () => undefined },
    child: { agent: 'worker', target: 'subagent-worker-run1', ...(worktree ? { worktree: true as const } : {}) },
  };
  const scope = { runId: 'subagent-worker-run1', signal: new AbortController().signal, cancelled: false };
  const call = (id: string, name: string, args: object) => runToolCall(deps, scope, { id, name, arguments: JSON.stringify(args) }, OFFERED);
  return { ws, asked, call };
}

test('in its worktree under destructive, a child writes without a prompt, but bash still asks', async () => {
  const g = childGate('destructive', true);
  try {
    const wrote = await g.call('call_1', 'write_file', { path: 'a.txt', content: 'x\n' });
    assert.equal(wrote.ok, true);
    assert.equal(g.ws.read('a.txt'), 'x\n');
    const bash = await g.call('call_2', 'bash', { command: 'true' });
    assert.equal(bash.status, 'denied');
    assert.deepEqual(g.asked, ['bash']);
  } finally {
    g.ws.cleanup();
  }
});

test('without a worktree, or under always, the same write asks', async () => {
  for (const [mode, worktree] of [
    ['destructive', false],
    ['always', true],
  ] as const) {
    const g = childGate(mode, worktree);
    try {
      const outcome = await g.call('call_1', 'write_file', { path: 'a.txt', content: 'x\n' });
      assert.equal(outcome.status, 'denied', `${mode}, worktree ${worktree}`);
      assert.deepEqual(g.asked, ['write_file']);
      assert.equal(g.ws.exists('a.txt'), false);
    } finally {
      g.ws.cleanup();
    }
  }
});
