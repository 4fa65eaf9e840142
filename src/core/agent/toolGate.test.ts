import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { globalPluginsDir, script, tempDir, writePlugin } from '../../../test/support/pluginFixtures';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { Escalations } from '../approvals/escalations';
import { PermissionRules } from '../approvals/permissionRules';
import { coreTools, toolRulesMatchPaths } from '../app/allTools';
import { CorePlugins } from '../plugins/corePlugins';
import type { ChildEvent } from '../runtime/eventSink';
import type { ToolOutcome } from '../tools/types';
import { runToolCall, type CallAnnouncer, type GateDeps, type ToolCall } from './toolGate';

const workspaces: TestWorkspace[] = [];
afterEach(() => workspaces.splice(0).forEach((w) => w.cleanup()));

function gate(child?: { agent: string; target: string }) {
  const ws = makeTestWorkspace();
  workspaces.push(ws);
  const events: ChildEvent[] = [];
  let onEvent: ((e: ChildEvent) => void) | undefined;
  /** The approval request, now or when the gate emits it. */
  const approvalRequest = (): Promise<ChildEvent> =>
    new Promise((resolve) => {
      const found = events.find((e) => e.type === 'approval_request');
      if (found) return resolve(found);
      onEvent = (e) => e.type === 'approval_request' && resolve(e);
    });
  const announced: string[] = [];
  const broker = new ApprovalBroker({ onExpired: () => undefined });
  const announce: CallAnnouncer = {
    started: (call, args) => announced.push(`started ${call.id} ${JSON.stringify(args)}`),
    finished: (call, outcome: ToolOutcome) => announced.push(`finished ${call.id} ${outcome.ok}`),
  };
  const deps: GateDeps = {
    approvals: {
      mode: 'destructive',
      rules: new PermissionRules({ allow: [], deny: [], ask: [] }, toolRulesMatchPaths),
      escalations: new Escalations(),
      broker,
    },
    builtIns: coreTools,
    emit: (e) => {
      events.push(e);
      onEvent?.(e);
    },
    beforeDestructive: async () => undefined,
    toolContext: () => ws.context(),
    refuseTool: () => undefined,
    ...(child ? { child, announce } : {}),
  };
  const scope = { runId: 'turn-1', signal: new AbortController().signal, cancelled: false };
  return { ws, events, announced, broker, deps, scope, approvalRequest };
}

const call = (id: string, name: string, args: string): ToolCall => ({ id, name, arguments: args });
const offered = new Set(['read_file', 'write_file']);

test("child mode: malformed arguments are announced as {} then failed, and nothing of the foreground's is emitted", async () => {
  const g = gate({ agent: 'worker', target: 'subagent-worker-run1' });
  const outcome = await runToolCall(g.deps, g.scope, call('c1', 'read_file', '{not json'), offered);
  assert.equal(outcome.ok, false);
  assert.match(outcome.output, /^tool arguments are not valid JSON/);
  assert.deepEqual(g.announced, ['started c1 {}', 'finished c1 false']);
  assert.deepEqual(g.events, []);
});

test("child mode: the approval is keyed by the child's target, so marking the target stale cancels it", async () => {
  const target = 'subagent-worker-run1';
  const g = gate({ agent: 'worker', target });
  const running = runToolCall(g.deps, g.scope, call('c1', 'write_file', JSON.stringify({ path: 'a.txt', content: 'x' })), offered);
  const request = await g.approvalRequest();
  assert.equal(request.run_id, target);
  g.broker.markStale(target);
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  assert.ok(!g.ws.exists('a.txt'));
});

test('foreground mode is unchanged: tool_call before, tool_result after, the approval under the run id', async () => {
  const g = gate();
  const running = runToolCall(g.deps, g.scope, call('c1', 'write_file', JSON.stringify({ path: 'a.txt', content: 'x' })), offered);
  const request = await g.approvalRequest();
  assert.equal('run_id' in request, false, 'the sink stamps the run id');
  g.broker.markStale('turn-1');
  await running;
  assert.deepEqual(
    g.events.map((e) => e.type),
    ['tool_call', 'approval_request', 'tool_result'],
  );
});

/** Real plugins from a home whose one plugin offers `plug_tool`, a handler that leaves `marker` behind when it runs. */
function pluginsWithTool(workspace: string) {
  const home = tempDir('gate-home-');
  const marker = join(tempDir('gate-marker-'), 'ran');
  writePlugin(globalPluginsDir(home), 'plug', {
    manifest: { name: 'plug', version: '1', tools: [{ name: 'plug_tool', kind: 'readonly', script: 'tool.js' }] },
    files: { 'tool.js': script(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); answer({ ok: true, output: 'ran' });`) },
  });
  const plugins = new CorePlugins({
    homeDir: home,
    configDir: join(home, '.catalyst-code'),
    workspace,
    trustProject: false,
    env: process.env,
    builtIns: coreTools,
    log: () => undefined,
    emit: () => undefined,
    sessionFile: () => undefined,
  });
  plugins.manager.scan();
  return { gate: plugins.gate(), marker };
}

test('a plugin tool is the main agent’s only: a child gate refuses it even when its offered set names it', async () => {
  const child = gate({ agent: 'worker', target: 'subagent-worker-run1' });
  const childPlugins = pluginsWithTool(child.ws.root);
  child.deps.plugins = childPlugins.gate;
  const refused = await runToolCall(child.deps, child.scope, call('c1', 'plug_tool', '{}'), new Set(['plug_tool']));
  assert.equal(refused.ok, false);
  assert.match(refused.output, /^tool 'plug_tool' is not available to agent 'worker'/);
  assert.equal(existsSync(childPlugins.marker), false, 'the handler did not run for the child');

  const main = gate();
  const mainPlugins = pluginsWithTool(main.ws.root);
  main.deps.plugins = mainPlugins.gate;
  const ran = await runToolCall(main.deps, main.scope, call('m1', 'plug_tool', '{}'), new Set(['plug_tool']));
  assert.deepEqual([ran.ok, ran.output], [true, 'ran']);
  assert.equal(existsSync(mainPlugins.marker), true);
});

/** Real plugins from a home whose one plugin has a `point` hook (pre_read, pre_write…) that rewrites every call with `modify`. */
function pluginsRewriting(workspace: string, point: string, modify: Record<string, unknown>) {
  const home = tempDir('gate-home-');
  writePlugin(globalPluginsDir(home), 'rewriter', {
    manifest: { name: 'rewriter', version: '1', hooks: { [point]: { script: 'rewrite.js' } } },
    files: { 'rewrite.js': script(`answer({ allow: true, modify: ${JSON.stringify(modify)} });`) },
  });
  const plugins = new CorePlugins({
    homeDir: home,
    configDir: join(home, '.catalyst-code'),
    workspace,
    trustProject: false,
    env: process.env,
    builtIns: coreTools,
    log: () => undefined,
    emit: () => undefined,
    sessionFile: () => undefined,
  });
  plugins.manager.scan();
  return plugins.gate();
}

/** How a gate judged one call: whether it asked the user (every question is answered yes), and the call's status. */
async function judgement(g: ReturnType<typeof gate>, c: ToolCall, tools: ReadonlySet<string>) {
  let asked = 0;
  const emit = g.deps.emit;
  g.deps.emit = (e) => {
    emit(e);
    if (e.type !== 'approval_request') return;
    asked++;
    g.broker.answer(e.request_id, { decision: 'yes' });
  };
  const outcome = await runToolCall(g.deps, g.scope, c, tools);
  g.deps.emit = emit;
  return { asked, status: outcome.status };
}

test('a call a hook rewrote is judged as the call it became: confinement, rules, restricted paths, approval mode', async () => {
  const cases: Array<{
    why: string;
    child?: 'worktree';
    rules?: { allow?: string[]; deny?: string[] };
    point: string;
    original: { name: string; args: Record<string, unknown> };
    rewrite: Record<string, unknown>;
  }> = [
    {
      why: 'into a restricted path',
      point: 'pre_read',
      original: { name: 'read_file', args: { path: 'a.txt' } },
      rewrite: { path: '.env' },
    },
    {
      why: 'into a denied path',
      rules: { deny: ['read_file(secret/**)'] },
      point: 'pre_read',
      original: { name: 'read_file', args: { path: 'a.txt' } },
      rewrite: { path: 'secret/k.txt' },
    },
    {
      why: 'out of an allow rule',
      rules: { allow: ['write_file(src/**)'] },
      point: 'pre_write',
      original: { name: 'write_file', args: { path: 'src/a.txt', content: 'x' } },
      rewrite: { path: 'lib/a.txt' },
    },
    {
      why: "within a worktree child's unprompted file tools",
      child: 'worktree',
      point: 'pre_write',
      original: { name: 'write_file', args: { path: 'a.txt', content: 'x' } },
      rewrite: { path: 'b.txt' },
    },
    { why: 'out of the workspace', point: 'pre_read', original: { name: 'read_file', args: { path: 'a.txt' } }, rewrite: { path: '../x' } },
  ];
  const tools = new Set(['read_file', 'write_file']);
  for (const c of cases) {
    const setUp = () => {
      const g = gate(c.child ? { agent: 'worker', target: 'subagent-worker-run1' } : undefined);
      if (c.child) g.deps.child = { agent: 'worker', target: 'subagent-worker-run1', worktree: true };
      g.deps.approvals.rules = new PermissionRules(
        { allow: c.rules?.allow ?? [], deny: c.rules?.deny ?? [], ask: [] },
        toolRulesMatchPaths,
      );
      for (const file of ['a.txt', 'b.txt', '.env', 'secret/k.txt']) g.ws.write(file, 'old');
      return g;
    };
    const direct = setUp();
    const asItBecame = await judgement(direct, call('d1', c.original.name, JSON.stringify({ ...c.original.args, ...c.rewrite })), tools);
    const hooked = setUp();
    hooked.deps.plugins = pluginsRewriting(hooked.ws.root, c.point, c.rewrite);
    const rewritten = await judgement(hooked, call('h1', c.original.name, JSON.stringify(c.original.args)), tools);
    assert.deepEqual(rewritten, asItBecame, c.why);
    const written = c.rewrite.path as string;
    if (rewritten.status === 'success' && c.original.name === 'write_file') assert.equal(hooked.ws.read(written), 'x', 'the rewrite ran');
  }
});
