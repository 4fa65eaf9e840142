import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ModelRoute } from '../subagents/childRunner';
import type { ChildSpec, SubagentHost } from '../agents/subagentHost';
import { builtinAgents } from '../agents/builtinAgents';
import { DEFAULT_SUBAGENT_SETTINGS } from '../config/coreConfig';
import type { ChatMessage, ResolvedProvider } from '../providers/types';
import type { SessionEvent } from '../runtime/eventSink';
import { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionFile';
import { GoalController } from './goalController';
import { cancelGoal, startGoal } from './goalLifecycle';
import { goalSettings } from '../commands/goalOptions';
import type { GoalHost, GoalTurnRequest } from './goalHost';

/**
 * A GoalHost test double: turns are scopes the test ends by hand, children answer at once, and everything the goal
 * asks of its host is recorded in order.
 */
class FakeGoalHost implements GoalHost {
  readonly events: SessionEvent[] = [];
  /** What the goal asked of the host, in order (`turn`, `checkpoint`, `child <agent>`, `cancel active`…). */
  readonly calls: string[] = [];
  readonly records: RunRecord[] = [];
  readonly turns: { request: GoalTurnRequest; scope: RunScope }[] = [];
  messageLog: ChatMessage[] = [];
  private active: RunScope | undefined;
  private turnWaiters: (() => void)[] = [];
  private runIds = 0;

  constructor(readonly workspace: string) {}

  sessionId = () => 'session-1';
  emit = (event: SessionEvent) => void this.events.push(event);
  emitInRun = (_scope: RunScope, event: SessionEvent) => void this.events.push(event);
  log = () => {};
  activeRun = () => this.active;
  startTurn = (request: GoalTurnRequest): RunScope => {
    const scope = new RunScope('session-1', `turn-${this.turns.length + 1}`, 'turn');
    this.calls.push(`turn ${request.model}`);
    this.turns.push({ request, scope });
    this.active = scope;
    for (const wake of this.turnWaiters.splice(0)) wake();
    return scope;
  };
  cancelActive = () => {
    this.calls.push('cancel active');
    this.active?.cancel('goal_cancelled');
  };
  checkpointBeforeDeploy = async (goalId: string) => void this.calls.push(`checkpoint ${goalId}`);
  childHost = (_route: ModelRoute, root: RunScope): SubagentHost => {
    this.calls.push(`child host under ${root.runId}`);
    const fake: Pick<SubagentHost, 'runId' | 'depth' | 'allocateRunId' | 'runChild' | 'agents' | 'settings'> = {
      runId: root.runId,
      depth: 0,
      allocateRunId: () => `run-${++this.runIds}`,
      runChild: async (spec: ChildSpec) => {
        this.calls.push(`child ${spec.agent.name}`);
        return { ok: true, output: `${spec.agent.name} finished ${spec.runId}`, state: 'completed' };
      },
      agents: () => builtinAgents(),
      settings: DEFAULT_SUBAGENT_SETTINGS,
    };
    return fake as SubagentHost;
  };
  cancelChildren = (root: RunScope) => void this.calls.push(`cancel children of ${root.runId}`);
  route = (model: string): ModelRoute => ({ model, provider: { name: 'fake' } as ResolvedProvider });
  knownModels = () => ['planner-model'];
  agentNames = () => builtinAgents().map((a) => a.name);
  messages = () => this.messageLog;
  recordRun = (record: RunRecord) => void this.records.push(record);
  workerTimeoutSecs = () => 300;
  onNeedDecision = () => {};

  /** Ends the running turn as the turn service does: its `onEnd`, then the slot is free. */
  endTurn(lastText = ''): void {
    const { request, scope } = this.turns[this.turns.length - 1];
    this.messageLog = [...this.messageLog, { role: 'assistant', content: lastText }];
    request.onEnd(scope);
    if (this.active === scope) this.active = undefined;
  }

  /** Resolves when the goal has started its `n`th turn. */
  async turnStarted(n: number): Promise<void> {
    while (this.turns.length < n) await new Promise<void>((wake) => this.turnWaiters.push(wake));
  }

  phases(): string[] {
    return this.events.filter((e) => e.type === 'goal_phase').map((e) => `${e.from}→${e.to}`);
  }
}

function settings(fields: Record<string, unknown> = {}) {
  const parsed = goalSettings(
    { type: 'start_goal', goal: 'add a --json flag', model: 'planner-model', ...fields },
    DEFAULT_SUBAGENT_SETTINGS,
  );
  assert.ok(typeof parsed !== 'string', String(parsed));
  return parsed;
}

function withWorkspace(run: (ws: string) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const ws = mkdtempSync(join(tmpdir(), 'goal-lifecycle-'));
    try {
      await run(ws);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  };
}

test(
  'a classic goal through a fake host: scout and planning turn, plan, scout stopped, checkpoint, one worker per step, wrap-up turn, done',
  withWorkspace(async (ws) => {
    const host = new FakeGoalHost(ws);
    const ctl = new GoalController(host);
    startGoal(ctl, settings({ auto_deploy: true }));

    const planning = host.turns[0].request;
    assert.deepEqual(
      planning.tools?.map((t) => t.name),
      ['goal_write_plan'],
    );
    const written = planning.toolContext?.goalPlan?.writePlan({
      summary: 'two steps',
      steps: [
        { id: 'a', agent: 'worker', title: 'Parse the flag', task: 'parse --json' },
        { id: 'b', agent: 'worker', title: 'Print JSON', task: 'print it', depends_on: ['a'] },
      ],
    });
    assert.deepEqual(written, { ok: true, output: 'Plan accepted (2 steps). Deploy will start after this planning turn.' });
    assert.equal(ctl.goal?.phase, 'plan_ready');

    host.endTurn();
    await host.turnStarted(2);
    const goal = ctl.goal!;
    assert.equal(goal.phase, 'synthesizing');
    assert.deepEqual(host.calls, [
      `child host under ${goal.id}`,
      'child scout',
      'turn planner-model',
      `cancel children of ${goal.id}`,
      `checkpoint ${goal.id}`,
      `child host under ${goal.id}`,
      'child worker',
      'child worker',
      'turn planner-model',
    ]);
    assert.deepEqual(
      goal.prompts.map((p) => [p.step_id, p.status]),
      [
        ['a', 'done'],
        ['b', 'done'],
      ],
    );
    assert.equal(
      readFileSync(join(ws, '.catalyst-code/goal-ux/artifacts', goal.id, 'a.md'), 'utf8'),
      `worker finished ${goal.prompts[0].run_id}`,
    );

    host.endTurn('Both steps are in.');
    assert.deepEqual(host.phases(), [
      'planning→plan_ready',
      'plan_ready→deploying',
      'deploying→running',
      'running→running',
      'running→synthesizing',
      'synthesizing→done',
    ]);
    assert.ok(
      host.events.some((e) => e.type === 'goal_completion_summary'),
      'a wrap-up this short is followed by the deterministic report',
    );
    assert.deepEqual(
      host.records.map((r) => [r.run_id, r.kind, r.state]),
      [
        [goal.id, 'goal', 'started'],
        [goal.id, 'goal', 'completed'],
      ],
    );
  }),
);

test(
  'a planning turn that ends without goal_write_plan fails the goal with upstream’s message',
  withWorkspace((ws) => {
    const host = new FakeGoalHost(ws);
    const ctl = new GoalController(host);
    startGoal(ctl, settings());
    host.endTurn('I could not decide.');
    assert.equal(ctl.goal?.phase, 'failed');
    assert.equal(ctl.goal?.error, 'planning turn ended without goal_write_plan — re-run /goal');
    const id = ctl.goal!.id;
    assert.deepEqual(
      host.calls,
      [`child host under ${id}`, 'child scout', 'turn planner-model', `cancel children of ${id}`],
      'the scout is stopped; no deploy: no checkpoint, no worker',
    );
  }),
);

test(
  'cancel_goal while planning cancels the host’s turn and ends the goal cancelled; a reset then clears it',
  withWorkspace((ws) => {
    const host = new FakeGoalHost(ws);
    const ctl = new GoalController(host);
    startGoal(ctl, settings());
    cancelGoal(ctl, 'cancel_goal');
    assert.ok(host.turns[0].scope.cancelled, 'the planning turn was cancelled through the host');
    assert.equal(ctl.goal?.phase, 'cancelled');
    assert.deepEqual(
      host.events.filter((e) => e.type === 'info').map((e) => e.message),
      ['Goal mode: planning…', 'goal cancelled'],
    );
    host.endTurn();
    assert.equal(ctl.goal?.phase, 'cancelled', 'the cancelled turn ending later changes nothing');
    ctl.clear();
    assert.equal(ctl.goal, undefined);
    assert.equal(host.events.at(-2)?.type, 'goal_state');
  }),
);
