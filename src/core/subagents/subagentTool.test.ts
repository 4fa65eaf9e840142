import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildGroup, ChildResult, ChildSpec, GroupSpec, SubagentHost, SubagentRunInfo } from '../agents/subagentHost';
import { parseAgentFile } from '../agents/agentFile';
import { builtinAgents } from '../agents/builtinAgents';
import { agentDirs, discoverAgents } from '../agents/discovery';
import type { AgentDefinition } from '../agents/types';
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from '../config/coreConfig';
import { git, initRepo, isolateGitConfig } from '../../../test/support/gitTestSupport';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { createWorktree, WORKTREE_REQUIRES_GIT, type WorktreeEvent, worktreeName } from '../worktrees/worktree';
import { subagentTool } from './subagentTool';
import type { ToolOutcome } from '../tools/types';

type Answer = (spec: ChildSpec) => ChildResult | Promise<ChildResult>;

/** A host that records what the tool asks of it; children answer through `answer`, or stay pending until released. */
class FakeHost implements SubagentHost {
  constructor(
    private readonly answer?: Answer,
    readonly runId = 'run-fg',
    readonly depth = 0,
  ) {}

  settings: SubagentSettings = { ...DEFAULT_SUBAGENT_SETTINGS };
  agentList: AgentDefinition[] = builtinAgents().sort((a, b) => a.name.localeCompare(b.name));
  readonly children: ChildSpec[] = [];
  readonly log: unknown[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** The children in flight as each one started, itself included. */
  readonly inFlightAtStart: number[] = [];
  private lastRun = 0;
  private readonly releases = new Map<string, (result: ChildResult) => void>();
  private startWaiters: { count: number; resolve: () => void }[] = [];
  readonly groups = new Map<string, AbortController>();

  allocateRunId(): string {
    return `run-${(++this.lastRun).toString(16)}`;
  }

  async runChild(spec: ChildSpec): Promise<ChildResult> {
    this.children.push(spec);
    this.log.push(['child', spec.runId]);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.inFlightAtStart.push(this.inFlight);
    this.startWaiters = this.startWaiters.filter((w) => (this.children.length >= w.count ? (w.resolve(), false) : true));
    try {
      if (this.answer) return await this.answer(spec);
      return await new Promise<ChildResult>((resolve) => this.releases.set(spec.runId, resolve));
    } finally {
      this.inFlight--;
    }
  }

  openGroup(spec: GroupSpec): ChildGroup {
    const controller = new AbortController();
    this.groups.set(spec.runId, controller);
    this.log.push(['start', spec]);
    return {
      runId: spec.runId,
      signal: controller.signal,
      finish: (state, failure) => this.log.push(['done', spec.runId, state, ...(failure === undefined ? [] : [failure])]),
    };
  }

  info(message: string): void {
    this.log.push(['info', message]);
  }

  runList: SubagentRunInfo[] = [];
  readonly live = new Set<string>();

  runs(): SubagentRunInfo[] {
    return this.runList;
  }

  interrupt(runId: string): boolean {
    this.log.push(['interrupt', runId]);
    return this.live.has(runId);
  }

  steer(runId: string, message: string): boolean {
    this.log.push(['steer', runId, message]);
    return this.live.has(runId);
  }

  emitWorktree(event: WorktreeEvent): void {
    this.log.push([event.type, 'run_id' in event ? event.run_id : event.path]);
  }

  agents(): AgentDefinition[] {
    return this.agentList;
  }

  /** Resolves once `count` children have started. */
  started(count: number): Promise<void> {
    if (this.children.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push({ count, resolve }));
  }

  release(runId: string, result: ChildResult): void {
    const release = this.releases.get(runId);
    assert.ok(release, `${runId} is not pending`);
    this.releases.delete(runId);
    release(result);
  }
}

const completed = (output: string): ChildResult => ({ ok: true, output, state: 'completed' });
const echo: Answer = (spec) => completed(`${spec.agent.name} did: ${spec.task}`);

async function call(host: SubagentHost | undefined, args: Record<string, unknown>, depth = 0): Promise<ToolOutcome> {
  const ws = makeTestWorkspace();
  try {
    return await subagentTool.execute(args, ws.context({ subagents: host, depth, callId: 'call_9' }));
  } finally {
    ws.cleanup();
  }
}

describe('subagent: the definition', () => {
  test('destructive, never in a read wave, no targets; every argument optional', () => {
    assert.equal(subagentTool.kind, 'destructive');
    assert.equal(subagentTool.parallelSafe, undefined);
    assert.equal(subagentTool.gatesInnerCalls, undefined);
    assert.deepEqual(subagentTool.targets({ agent: 'worker', task: 'x' }), { paths: [] });
    const parameters = subagentTool.schema.parameters as { properties: Record<string, unknown>; required?: string[] };
    assert.equal(parameters.required, undefined);
    assert.deepEqual(Object.keys(parameters.properties).sort(), [
      'action',
      'agent',
      'agentScope',
      'async',
      'chain',
      'concurrency',
      'config',
      'context',
      'id',
      'message',
      'model',
      'task',
      'tasks',
      'worktree',
    ]);
  });
});

describe('subagent: dispatch', () => {
  test('the depth guard comes first; a max of 0 blocks every call', async () => {
    const host = new FakeHost(echo);
    const nested = await call(host, { agent: 'worker', task: 't' }, 2);
    // A child's call (depth > 0) past its limit gets upstream's nested wording.
    assert.deepEqual([nested.ok, nested.output], [false, 'nested subagent blocked at depth 2 (max 2)']);
    const withinLimit = await call(host, { agent: 'worker', task: 't' }, 1);
    assert.equal(withinLimit.ok, true);
    host.settings.maxDepth = 0;
    const blocked = await call(host, { action: 'list' });
    assert.deepEqual(
      [blocked.ok, blocked.output],
      [false, 'subagent nesting blocked at depth 0 (max 0); complete the current task directly'],
    );
    assert.deepEqual(host.log, [['child', 'run-1']]);
    assert.equal(host.children[0].depth, 2);
  });

  test('without a host, or without a mode, it says what it needs', async () => {
    assert.deepEqual((await call(undefined, { agent: 'worker' })).output, 'subagent is not available here');
    const none = await call(new FakeHost(echo), { task: 'orphan task' });
    assert.deepEqual([none.ok, none.output], [false, "subagent requires 'agent'+'task', 'tasks', 'chain', or 'action'"]);
  });

  test('an unknown agent, async, and a worktree outside git are refused before anything runs', async () => {
    const host = new FakeHost(echo);
    assert.equal((await call(host, { agent: 'nobody', task: 't' })).output, `unknown agent 'nobody'; use action:"list" to discover agents`);
    assert.equal((await call(host, { agent: 'worker', task: 't', async: true })).output, 'async is not supported');
    assert.equal((await call(host, { agent: 'worker', task: 't', worktree: true })).output, WORKTREE_REQUIRES_GIT);
    assert.equal((await call(host, { tasks: [{ agent: 'worker', task: 't' }], worktree: true })).output, WORKTREE_REQUIRES_GIT);
    assert.deepEqual(host.log, []);
  });

  test('an action wins over agent; a bare prompt runs delegate, fresh, with the model override', async () => {
    const host = new FakeHost(echo);
    const listed = await call(host, { action: 'list', agent: 'worker', task: 't' });
    assert.match(listed.output, /^8 agent\(s\):\n- context-builder \[builtin\] — /);
    assert.equal(host.children.length, 0);
    const legacy = await call(host, { prompt: 'do it', model: 'm-2', context: 'fork' });
    assert.deepEqual([legacy.ok, legacy.output], [true, 'delegate did: do it']);
    assert.deepEqual(
      host.children.map((c) => [c.agent.name, c.task, c.context, c.model]),
      [['delegate', 'do it', 'fresh', 'm-2']],
    );
  });
});

describe('subagent: single', () => {
  test("one child of the calling run: the agent's default context unless given, one level deeper", async () => {
    const host = new FakeHost(echo);
    host.agentList = [...builtinAgents(), { ...builtinAgents().find((a) => a.name === 'scout')!, name: 'capped', maxSubagentDepth: 1 }];
    const result = await call(host, { agent: 'pkg.worker', task: 'implement it' });
    assert.deepEqual([result.ok, result.output, result.status], [true, 'worker did: implement it', 'success']);
    await call(host, { agent: 'worker', task: 'again', context: 'fresh' });
    await call(host, { agent: 'capped' });
    assert.deepEqual(
      host.children.map((c) => [c.runId, c.parentRunId, c.toolCallId, c.agent.name, c.task, c.context, c.depth, c.maxDepth]),
      [
        ['run-1', 'run-fg', 'call_9', 'worker', 'implement it', 'fork', 1, 2],
        ['run-2', 'run-fg', 'call_9', 'worker', 'again', 'fresh', 1, 2],
        ['run-3', 'run-fg', 'call_9', 'capped', '', 'fresh', 1, 1],
      ],
    );
  });

  test("a failed or cancelled child is a failed call with the child's text", async () => {
    const failing = await call(new FakeHost(() => ({ ok: false, output: 'subagent stream error: boom', state: 'failed' })), {
      agent: 'scout',
    });
    assert.deepEqual([failing.ok, failing.output, failing.status], [false, 'subagent stream error: boom', 'failed']);
    const aborted = await call(new FakeHost(() => ({ ok: false, output: '[subagent aborted]', state: 'cancelled' })), { agent: 'scout' });
    assert.deepEqual([aborted.ok, aborted.output, aborted.status], [false, '[subagent aborted]', 'cancelled']);
  });
});

describe('subagent: parallel', () => {
  test('validation happens before anything is emitted', async () => {
    const host = new FakeHost(echo);
    const cases: [unknown, string][] = [
      [[], "parallel requires a non-empty 'tasks' array"],
      [
        [
          { agent: 'worker', task: 'a' },
          { agent: 'ghost', task: 'b' },
        ],
        "parallel task 1: unknown agent 'ghost'",
      ],
      [['not an object'], "parallel task 0: unknown agent ''"],
      [
        Array.from({ length: 257 }, () => ({ agent: 'scout' })),
        'parallel has 257 tasks (absolute safety max 256); split into smaller batches',
      ],
    ];
    for (const [tasks, message] of cases) {
      const result = await call(host, { tasks });
      assert.deepEqual([result.ok, result.output], [false, message]);
    }
    assert.deepEqual(host.log, []);
  });

  test('one batch run, children <batch>-<i> of it, blocks in input order, ok only if every child is', async () => {
    const host = new FakeHost((spec) =>
      spec.task === 'fail' ? { ok: false, output: 'it broke', state: 'failed' } : completed(`  out ${spec.task}  `),
    );
    const ok = await call(host, {
      tasks: [
        { agent: 'scout', task: 'a' },
        { agent: 'worker', task: 'b', model: 'm-1' },
      ],
    });
    assert.deepEqual([ok.ok, ok.output], [true, '=== Parallel Task 1 (scout) ===\n  out a  \n\n=== Parallel Task 2 (worker) ===\n  out b']);
    assert.deepEqual(host.log, [
      ['start', { runId: 'run-1', mode: 'parallel', agents: ['scout', 'worker'], task: 'parallel (2 tasks)', toolCallId: 'call_9' }],
      ['child', 'run-1-0'],
      ['child', 'run-1-1'],
      ['done', 'run-1', 'completed'],
    ]);
    assert.deepEqual(
      host.children.map((c) => [c.runId, c.parentRunId, c.context, c.depth, c.model, c.signal === host.groups.get('run-1')!.signal]),
      [
        ['run-1-0', 'run-1', 'fresh', 1, undefined, true],
        ['run-1-1', 'run-1', 'fork', 1, 'm-1', true],
      ],
    );

    const mixed = await call(host, {
      context: 'fresh',
      tasks: [
        { agent: 'worker', task: 'fail' },
        { agent: 'worker', task: 'c' },
      ],
    });
    assert.deepEqual(
      [mixed.ok, mixed.output],
      [false, '=== Parallel Task 1 (worker) ===\nit broke\n\n=== Parallel Task 2 (worker) ===\n  out c'],
    );
    assert.deepEqual(host.log.at(-1), ['done', 'run-2', 'failed']);
    assert.deepEqual(
      host.children.slice(2).map((c) => c.context),
      ['fresh', 'fresh'],
    );
  });

  test('at most min(max(arg, 1), configured) children in flight, started in input order', async () => {
    const cases: [number | undefined, number, number][] = [
      [undefined, 2, 2],
      [10, 2, 2],
      [1, 4, 1],
      [0, 3, 1],
    ];
    for (const [requested, configured, expected] of cases) {
      const host = new FakeHost();
      host.settings.parallelConcurrency = configured;
      const tasks = Array.from({ length: 5 }, (_, i) => ({ agent: 'scout', task: `t${i}` }));
      const running = call(host, { tasks, ...(requested !== undefined ? { concurrency: requested } : {}) });
      for (let i = 0; i < tasks.length; i++) {
        // The next child starts only once an earlier one has finished.
        await host.started(Math.min(i + expected, tasks.length));
        assert.equal(host.children.length, Math.min(i + expected, tasks.length));
        host.release(`run-1-${i}`, completed(`o${i}`));
      }
      const result = await running;
      assert.equal(result.ok, true);
      const label = `requested ${requested}, cap ${configured}`;
      assert.deepEqual(
        host.inFlightAtStart,
        tasks.map((_, i) => Math.min(i + 1, expected)),
        label,
      );
      assert.equal(host.maxInFlight, expected, label);
      assert.deepEqual(
        host.children.map((c) => c.runId),
        ['run-1-0', 'run-1-1', 'run-1-2', 'run-1-3', 'run-1-4'],
      );
    }
  });

  test("an item's count repeats it, and the repeats count towards the hard limit", async () => {
    const host = new FakeHost(echo);
    const result = await call(host, {
      tasks: [
        { agent: 'scout', task: 'look', count: 3 },
        { agent: 'worker', task: 'do', count: 1.5 },
      ],
    });
    assert.equal(result.ok, true);
    assert.deepEqual(
      host.children.map((c) => [c.runId, c.agent.name, c.task]),
      [
        ['run-1-0', 'scout', 'look'],
        ['run-1-1', 'scout', 'look'],
        ['run-1-2', 'scout', 'look'],
        ['run-1-3', 'worker', 'do'],
      ],
    );
    const tooMany = await call(host, {
      tasks: [
        { agent: 'scout', count: 200 },
        { agent: 'scout', count: 1e12 },
      ],
    });
    assert.deepEqual(
      [tooMany.ok, tooMany.output],
      [false, 'parallel has 1000000000200 tasks (absolute safety max 256); split into smaller batches'],
    );
  });

  test('a batch or chain that fails half-way still ends with its subagent_done', async () => {
    const broken = () => {
      throw new Error('host broke');
    };
    const host = new FakeHost(broken);
    const batch = await call(host, { tasks: [{ agent: 'scout' }] });
    assert.deepEqual([batch.ok, batch.output], [false, 'host broke']);
    assert.deepEqual(host.log.at(-1), ['done', 'run-1', 'failed']);
    const chainHost = new FakeHost(broken);
    await assert.rejects(call(chainHost, { chain: [{ agent: 'scout', task: 'a' }] }), /host broke/);
    assert.deepEqual(chainHost.log.at(-1), ['done', 'run-1', 'failed']);
  });

  test('more tasks than the soft cap are only noted', async () => {
    const host = new FakeHost(echo);
    host.settings.parallelMaxTasks = 2;
    const result = await call(host, { tasks: [{ agent: 'scout' }, { agent: 'scout' }, { agent: 'scout' }] });
    assert.equal(result.ok, true);
    assert.deepEqual(host.log[0], ['info', 'parallel batch has 3 tasks (soft cap 2): queuing with the configured concurrency']);
  });
});

describe('subagent: chain', () => {
  test('{previous}, {outputs.<as>} and {chain_dir}; the info line with its literal +1; the last output', async () => {
    let chainDir = '';
    const host = new FakeHost((spec) => {
      const dir = spec.agent.name === 'scout' ? /dir=(\S+)/.exec(spec.task)?.[1] : undefined;
      if (dir) {
        chainDir = dir;
        assert.ok(existsSync(dir), 'the chain dir exists while the chain runs');
      }
      return completed(`[${spec.agent.name}: ${spec.task}]`);
    });
    const result = await call(host, {
      chain: [
        { agent: 'scout', task: 'look dir={chain_dir}', as: 'map' },
        { agent: 'planner' },
        { agent: 'worker', task: 'plan={previous} map={outputs.map} none={outputs.nope}' },
      ],
    });
    assert.equal(result.ok, true);
    const step0 = `[scout: look dir=${chainDir}]`;
    const step1 = `[planner: ${step0}]`;
    assert.equal(result.output, `[worker: plan=${step1} map=${step0} none=]`);
    assert.equal(existsSync(chainDir), false, 'the chain dir is removed at the end');
    assert.match(chainDir, /catalyst-code-subagent-chain-run-1-/);
    assert.deepEqual(host.log[0], [
      'start',
      { runId: 'run-1', mode: 'chain', agents: ['scout', 'planner', 'worker'], task: 'chain (3 steps)', toolCallId: 'call_9' },
    ]);
    assert.deepEqual(host.log[1], [
      'info',
      `chain step 0+1: scout — look dir=${chainDir}`.slice(0, 'chain step 0+1: scout — '.length + 80),
    ]);
    assert.deepEqual(host.log.at(-1), ['done', 'run-1', 'completed']);
    assert.deepEqual(
      host.children.map((c) => [c.runId, c.parentRunId, c.context]),
      [
        ['run-1-0', 'run-1', 'fresh'],
        ['run-1-1', 'run-1', 'fork'],
        ['run-1-2', 'run-1', 'fork'],
      ],
    );
  });

  test('a parallel step is a batch <chain>-<i> of the chain, fresh unless the chain says otherwise', async () => {
    const host = new FakeHost((spec) => completed(spec.task.toUpperCase()));
    const result = await call(host, {
      chain: [
        { agent: 'scout', task: 'a' },
        { parallel: [{ agent: 'worker' }, { agent: 'reviewer', task: 'r:{previous}' }], as: 'both' },
      ],
    });
    assert.deepEqual([result.ok, result.output], [true, '=== Parallel Task 1 (worker) ===\nA\n\n=== Parallel Task 2 (reviewer) ===\nR:A']);
    assert.deepEqual(host.log[3], [
      'start',
      {
        runId: 'run-1-1',
        mode: 'parallel',
        agents: ['worker', 'reviewer'],
        task: 'parallel (2 tasks)',
        toolCallId: 'call_9',
        parentRunId: 'run-1',
      },
    ]);
    assert.deepEqual(
      host.children.map((c) => [c.runId, c.parentRunId, c.context]),
      [
        ['run-1-0', 'run-1', 'fresh'],
        ['run-1-1-0', 'run-1-1', 'fresh'],
        ['run-1-1-1', 'run-1-1', 'fresh'],
      ],
    );
  });

  test('a failing step stops the chain with its text; a cancelled one is [chain aborted]', async () => {
    const host = new FakeHost((spec) =>
      spec.agent.name === 'planner' ? { ok: false, output: 'no plan', state: 'failed' } : completed('ok'),
    );
    const failedStep = await call(host, { chain: [{ agent: 'scout', task: 'a' }, { agent: 'planner' }, { agent: 'worker' }] });
    assert.deepEqual([failedStep.ok, failedStep.output], [false, 'chain step 1 (planner) failed: no plan']);
    assert.deepEqual(host.log.at(-1), ['done', 'run-1', 'failed']);
    assert.equal(host.children.length, 2);

    const parallelFails = await call(new FakeHost(() => ({ ok: false, output: 'x', state: 'failed' })), {
      chain: [{ parallel: [{ agent: 'scout' }] }],
    });
    assert.equal(parallelFails.output, 'chain step 0 (parallel group) failed: === Parallel Task 1 (scout) ===\nx');

    const cancelled = await call(new FakeHost(() => ({ ok: false, output: '[subagent aborted]', state: 'cancelled' })), {
      chain: [{ agent: 'scout', task: 'a' }, { agent: 'worker' }],
    });
    assert.deepEqual([cancelled.ok, cancelled.output], [false, '[chain aborted]']);
  });

  test('every step is checked before the chain starts', async () => {
    const host = new FakeHost(echo);
    assert.equal((await call(host, { chain: [] })).output, "chain requires a non-empty 'chain' array");
    assert.equal((await call(host, { chain: [{ agent: 'scout' }, { agent: 'ghost' }] })).output, "chain step 1: unknown agent 'ghost'");
    assert.equal(
      (await call(host, { chain: [{ parallel: [{ agent: 'ghost' }] }] })).output,
      "chain step 0 (parallel group) failed: parallel task 0: unknown agent 'ghost'",
    );
    assert.deepEqual(host.log, []);
  });
});

describe('subagent: actions', () => {
  test('list and get; the ones this core lacks say so; an unknown one lists the actions', async () => {
    const host = new FakeHost(echo);
    host.agentList = [{ ...builtinAgents()[0], name: 'only', description: 'the one', source: 'project' }];
    assert.equal((await call(host, { action: 'list' })).output, '1 agent(s):\n- only [project] — the one');
    const got = await call(host, { action: 'get', agent: 'only' });
    assert.equal(JSON.parse(got.output).name, 'only');
    assert.deepEqual([(await call(host, { action: 'get', agent: 'x' })).output], ["unknown agent 'x'"]);
    const create = await call(host, { action: 'create', config: { name: 'n' } });
    assert.deepEqual([create.ok, create.output], [false, 'this call cannot change files'], 'without runInner nothing is written');
    assert.equal(
      (await call(host, { action: 'dance' })).output,
      "unknown action 'dance'; use list|get|create|update|delete|status|interrupt|resume|peek|steer|doctor",
    );
  });

  const run = (runId: string, parentRunId: string, extra: Partial<SubagentRunInfo> = {}): SubagentRunInfo => ({
    runId,
    parentRunId,
    agent: 'worker',
    agents: ['worker'],
    mode: 'single',
    task: 't',
    target: `subagent-worker-${runId.replace(/-/g, '')}`,
    depth: 1,
    state: 'running',
    startedAt: 1_000,
    lastTurns: ['first', 'second'],
    lastTools: ['read_file'],
    messagesCount: 4,
    estimatedTokens: 120,
    ...extra,
  });

  test('status: one line per run, prefix-matched either way; no runs says so', async () => {
    const host = new FakeHost(echo);
    assert.deepEqual([(await call(host, { action: 'status' })).output], ['no subagent runs']);
    host.runList = [
      run('run-1', 'turn-a', { state: 'completed', endedAt: 4_400 }),
      run('run-2', 'turn-a', { agent: '', agents: ['scout', 'worker'], mode: 'parallel', target: '', state: 'failed', endedAt: 2_000 }),
      run('run-2-0', 'run-2', { agent: 'scout', agents: ['scout'], state: 'completed', endedAt: 2_000 }),
    ];
    const status = await call(host, { action: 'status', id: 'run-2' });
    assert.deepEqual(status.output.split('\n'), [
      '[failed] run-2 (parallel) — parent: turn-a — scout, worker — 1s — target: -',
      '[completed] run-2-0 (single) — parent: run-2 — scout — 1s — target: subagent-worker-run20',
    ]);
    assert.equal(
      (await call(host, { action: 'status' })).output.split('\n')[0],
      '[completed] run-1 (single) — parent: turn-a — worker — 3s — target: subagent-worker-run1',
    );
  });

  test('interrupt, steer and resume reach a live run; a gone one says so', async () => {
    const host = new FakeHost(echo);
    host.runList = [run('run-5', 'turn-a'), run('run-6', 'turn-a', { state: 'completed', endedAt: 2_000 })];
    host.live.add('run-5');
    const answers = [
      await call(host, { action: 'interrupt', id: 'run-5' }),
      await call(host, { action: 'interrupt', id: 'run-6' }),
      await call(host, { action: 'interrupt' }),
      await call(host, { action: 'steer', id: 'run-5', message: 'focus on a.ts' }),
      await call(host, { action: 'steer', id: 'run-5' }),
      await call(host, { action: 'steer', id: 'run-6', message: 'x' }),
      await call(host, { action: 'resume', id: 'run-5', message: 'go on' }),
      await call(host, { action: 'resume', id: 'run-6', message: 'go on' }),
    ].map((a) => [a.ok, a.output]);
    assert.deepEqual(answers, [
      [true, 'interrupted run run-5'],
      [false, 'run run-6 is no longer live'],
      [false, "interrupt requires 'id'"],
      [true, 'steer message delivered to run-5 (subagent-worker-run5)'],
      [false, "steer requires 'message'"],
      [false, 'run run-6 is no longer live'],
      [true, 'resume message delivered to subagent-worker-run5'],
      [true, 'run run-6 is no longer live; start a new run to continue'],
    ]);
    assert.deepEqual(
      host.log.filter((entry) => (entry as unknown[])[0] === 'steer'),
      [
        ['steer', 'run-5', 'focus on a.ts'],
        ['steer', 'run-6', 'x'],
        ['steer', 'run-5', 'go on'],
        ['steer', 'run-6', 'go on'],
      ],
    );
  });

  test('models and doctor', async () => {
    const host = new FakeHost(echo);
    host.agentList = [
      { ...builtinAgents()[0], name: 'pinned', model: 'fast-1', fallbackModels: ['slow-2', 'slow-3'], source: 'project' },
      { ...builtinAgents()[0], name: 'plain', source: 'builtin' },
    ];
    assert.equal(
      (await call(host, { action: 'models' })).output,
      "- pinned: fast-1 (fallback: slow-2, slow-3)\n- plain: the caller's model",
    );
    assert.equal((await call(host, { action: 'models', agent: 'plain' })).output, "- plain: the caller's model");
    assert.equal((await call(host, { action: 'models', agent: 'nope' })).output, "unknown agent 'nope'");
    host.runList = [run('run-3', 'turn-a'), run('run-4', 'turn-a', { state: 'completed', endedAt: 2_000 })];
    assert.deepEqual((await call(host, { action: 'doctor' })).output.split('\n'), [
      'agents: 2 (builtin 1, user 0, project 1)',
      'depth: this caller 0, max 2',
      'parallel: concurrency 4, soft cap 64 tasks, hard cap 256',
      'runs: 1 live, 1 ended',
      '- run-3 (single) running, target: subagent-worker-run3',
    ]);
  });

  test("peek: the run's state, counts, and its latest replies newest first", async () => {
    const host = new FakeHost(echo);
    host.runList = [run('run-7', 'turn-a')];
    const peeked = JSON.parse((await call(host, { action: 'peek', id: 'run-7' })).output);
    assert.deepEqual(peeked, {
      id: 'run-7',
      parent_run_id: 'turn-a',
      state: 'running',
      mode: 'single',
      agents: ['worker'],
      started_at: 1_000,
      ended_at: null,
      messages_count: 4,
      estimated_tokens: 120,
      last_turns: ['second', 'first'],
      last_tools: ['read_file'],
    });
    assert.deepEqual([(await call(host, { action: 'peek', id: 'zzz' })).output], ["no subagent run matches 'zzz'"]);
  });

  test("a child sees and acts on its own subtree only: never its siblings' or its parents' runs", async () => {
    const child = new FakeHost(echo, 'run-1-0', 1);
    child.runList = [
      run('run-1', 'turn-a'),
      run('run-1-0', 'run-1'),
      run('run-1-1', 'run-1'),
      run('run-9', 'run-1-0'),
      run('run-9-0', 'run-9'),
    ];
    for (const id of ['run-1', 'run-1-0', 'run-1-1', 'run-9', 'run-9-0']) child.live.add(id);
    assert.deepEqual(
      (await call(child, { action: 'status' }, 1)).output.split('\n').map((line) => line.split(' ')[1]),
      ['run-9', 'run-9-0'],
    );
    assert.equal((await call(child, { action: 'interrupt', id: 'run-1-1' }, 1)).output, 'run run-1-1 is no longer live');
    assert.equal((await call(child, { action: 'steer', id: 'run-1', message: 'x' }, 1)).output, 'run run-1 is no longer live');
    assert.equal((await call(child, { action: 'interrupt', id: 'run-9-0' }, 1)).output, 'interrupted run run-9-0');
    assert.deepEqual(
      child.log.filter((entry) => ['interrupt', 'steer'].includes((entry as string[])[0])),
      [['interrupt', 'run-9-0']],
    );
  });
});

describe('subagent: create, update, delete', () => {
  /** A workspace whose runInner applies write_file and delete, recording each; the host discovers its agents. */
  async function inWorkspace(
    body: (run: (args: Record<string, unknown>) => Promise<ToolOutcome>, ws: string, inner: string[]) => Promise<void>,
  ) {
    const ws = makeTestWorkspace();
    const inner: string[] = [];
    const host = new FakeHost(echo);
    const runInner = async (name: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
      inner.push(`${name} ${String(args.path)}`);
      const abs = join(ws.root, String(args.path));
      if (name === 'delete') rmSync(abs);
      else ws.write(String(args.path), String(args.content));
      return { ok: true, output: 'done', status: 'success', fileChanges: [] };
    };
    const run = (args: Record<string, unknown>) => {
      host.agentList = discoverAgents(agentDirs(join(ws.root, 'no-home'), ws.root));
      return subagentTool.execute(args, ws.context({ subagents: host, depth: 0, callId: 'call_9', runInner }));
    };
    try {
      await body(run, ws.root, inner);
    } finally {
      ws.cleanup();
    }
  }

  test('create writes a project agent file through the gate; update rewrites it; delete removes it', async () => {
    await inWorkspace(async (run, ws, inner) => {
      const created = await run({
        action: 'create',
        config: { name: 'helper', description: 'Helps\ntools: bash', tools: 'read, grep', systemPrompt: 'Help out.', thinking: 'low' },
      });
      assert.deepEqual([created.ok, created.output], [true, "created agent 'helper' at .catalyst-code/agents/helper.md"]);
      const file = join(ws, '.catalyst-code', 'agents', 'helper.md');
      let agent = parseAgentFile(readFileSync(file, 'utf8'), 'project')!;
      assert.deepEqual(
        [agent.name, agent.description, agent.tools, agent.thinking, agent.prompt],
        ['helper', 'Helps tools: bash', ['read_file', 'grep'], 'low', 'Help out.'],
        'a newline in a value cannot add a frontmatter key',
      );
      assert.match((await run({ action: 'create', config: { name: 'helper' } })).output, /^agent 'helper' already exists at /);

      const updated = await run({ action: 'update', agent: 'helper', config: { model: 'fast-1', tools: 'read' } });
      assert.deepEqual([updated.ok, updated.output], [true, "updated agent 'helper' at .catalyst-code/agents/helper.md"]);
      agent = parseAgentFile(readFileSync(file, 'utf8'), 'project')!;
      assert.deepEqual(
        [agent.model, agent.tools, agent.description, agent.prompt],
        ['fast-1', ['read_file'], 'Helps tools: bash', 'Help out.'],
      );

      const deleted = await run({ action: 'delete', agent: 'helper' });
      assert.deepEqual([deleted.ok, deleted.output], [true, "deleted agent 'helper' (.catalyst-code/agents/helper.md)"]);
      assert.equal(existsSync(file), false);
      assert.deepEqual(inner, [
        'write_file .catalyst-code/agents/helper.md',
        'write_file .catalyst-code/agents/helper.md',
        'delete .catalyst-code/agents/helper.md',
      ]);
    });
  });

  test('builtins, bad names and the user scope are refused, and nothing is written', async () => {
    await inWorkspace(async (run, _ws, inner) => {
      const answers = [
        await run({ action: 'create', config: {} }),
        await run({ action: 'create', config: { name: '../escape' } }),
        await run({ action: 'create', config: { name: 'mine', scope: 'user' } }),
        await run({ action: 'update', agent: 'worker', config: { model: 'm' } }),
        await run({ action: 'delete', agent: 'worker' }),
      ].map((a) => [a.ok, a.output]);
      assert.deepEqual(answers, [
        [false, 'create requires config.name'],
        [false, "agent name '../escape' may use only letters, digits, '_', '-' and '.'"],
        [
          false,
          'this core changes project agents only (<workspace>/.catalyst-code/agents); edit user agents in ~/.catalyst-code/agents yourself',
        ],
        [false, "agent 'worker' not found to update; create it first"],
        [false, "agent 'worker' not found (builtins cannot be deleted; override with disabled:true)"],
      ]);
      assert.deepEqual(inner, []);
    });
  });
});

describe('subagent: worktrees', () => {
  let restoreGit: () => void;
  before(() => (restoreGit = isolateGitConfig()));
  after(() => restoreGit());

  /** A committed repo; the call's runInner applies each proposal to it, as an approved write_file would. */
  async function callInRepo(
    host: FakeHost,
    args: Record<string, unknown>,
    prepare?: (root: string) => Promise<unknown>,
  ): Promise<{ result: ToolOutcome; ws: string; inner: string[] }> {
    const ws = makeTestWorkspace();
    initRepo(ws.root);
    ws.write('a.txt', 'base\n');
    git(ws.root, 'add', '-A');
    git(ws.root, 'commit', '-q', '-m', 'base');
    await prepare?.(ws.root);
    const inner: string[] = [];
    const runInner = async (name: string, innerArgs: Record<string, unknown>): Promise<ToolOutcome> => {
      inner.push(`${name} ${String(innerArgs.path)}`);
      writeFileSync(join(ws.root, String(innerArgs.path)), String(innerArgs.content));
      return { ok: true, output: 'written', status: 'success', fileChanges: [] };
    };
    const result = await subagentTool.execute(args, ws.context({ subagents: host, depth: 0, callId: 'call_9', runInner }));
    return { result, ws: ws.root, inner };
  }

  const editsInItsWorkspace: Answer = (spec) => {
    assert.ok(spec.workspace, 'the child runs in a worktree');
    writeFileSync(join(spec.workspace, 'a.txt'), `${spec.runId}\n`);
    return completed(`edited in ${spec.runId}`);
  };

  test('single: the child works in its worktree; its change comes back as a proposal; the worktree is removed', async () => {
    const host = new FakeHost(editsInItsWorkspace);
    const { result, ws, inner } = await callInRepo(host, { agent: 'worker', task: 'edit', worktree: true });
    assert.equal(result.ok, true);
    assert.match(result.output, /^edited in run-1\n\n/);
    assert.deepEqual(inner, ['write_file a.txt']);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'run-1\n');
    const wt = join(ws, '.catalyst-code', 'worktrees', worktreeName('run-1'));
    assert.deepEqual(host.log, [
      ['worktree_ready', 'run-1'],
      ['child', 'run-1'],
      ['worktree_promoted', 'run-1'],
      ['worktree_cleaned', wt],
    ]);
    assert.equal(host.children[0].workspace, wt);
    assert.equal(existsSync(wt), false);
  });

  test('parallel: every worktree exists before the first child starts; the changes come back in input order', async () => {
    const host: FakeHost = new FakeHost((spec): ChildResult => {
      assert.deepEqual(
        host.log.filter((entry: unknown) => (entry as unknown[])[0] === 'worktree_ready'),
        [
          ['worktree_ready', 'run-1-0'],
          ['worktree_ready', 'run-1-1'],
        ],
      );
      writeFileSync(join(spec.workspace!, `${spec.runId}.txt`), 'new\n');
      return completed('ok');
    });
    const { result, inner } = await callInRepo(host, { tasks: [{ agent: 'worker' }, { agent: 'worker' }], worktree: true });
    assert.equal(result.ok, true);
    assert.deepEqual(inner, ['write_file run-1-0.txt', 'write_file run-1-1.txt']);
    assert.deepEqual(host.log.at(-1), ['done', 'run-1', 'completed']);
  });

  test("parallel: a worktree that cannot be made fails the batch before any child runs, the failure in the batch's done", async () => {
    const host = new FakeHost(() => completed('never'));
    // run-1-1's worktree is held by a live run (this process): the batch's second worktree cannot be made.
    const { result } = await callInRepo(host, { tasks: [{ agent: 'worker' }, { agent: 'worker' }], worktree: true }, (root) =>
      createWorktree(root, 'run-1-1', () => undefined),
    );
    assert.equal(result.ok, false);
    assert.match(result.output, /^worktree setup failed for task 1: /);
    assert.equal(host.children.length, 0, 'no child ran');
    assert.deepEqual(host.log.at(-1), ['done', 'run-1', 'failed', result.output]);
  });
});
