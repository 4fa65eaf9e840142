/** Development aid and test data: goal mode's states for the Control Center, one per phase worth seeing. Never shipped. */
import type { GoalStepView, GoalView } from '../../src/shared/goalState';
import {
  initialSessionState,
  type ApprovalItem,
  type SessionState,
  type SubagentItem,
  type TranscriptItem,
} from '../../src/shared/sessionState';

export const GOAL_ID = 'goal-1764636000000';
/** A minute and a half ago, so the dev page's elapsed times look like a live goal's. */
const STARTED_AT = Date.now() - 90_000;

/** A ready core that announces goal mode. */
export function goalSessionState(goal: GoalView | undefined, items: TranscriptItem[] = []): SessionState {
  const s = initialSessionState('embedded');
  s.core = {
    kind: 'embedded',
    status: 'ready',
    capabilities: ['allow_pattern', 'checkpoint', 'approval_edited_content', 'goal'],
    version: '0.2.0',
  };
  s.anyLoggedIn = true;
  s.authed = true;
  s.models = [{ id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', provider: 'openrouter' }];
  s.model = 'anthropic/claude-sonnet-4';
  s.items = items;
  if (goal) s.goal = goal;
  return s;
}

function step(id: string, title: string, agent: string, dependsOn: string[], overrides: Partial<GoalStepView> = {}): GoalStepView {
  return {
    id,
    agent,
    title,
    task: `${title}: follow the repository's conventions and report what changed.`,
    dependsOn,
    status: 'pending',
    ...overrides,
  };
}

/** Four steps in three waves: a scout, two workers in parallel after it, the docs after both. */
export function goalSteps(): GoalStepView[] {
  return [
    step('scout', 'Map the CLI entry points', 'scout', []),
    step('flag', 'Add the --json flag', 'worker', ['scout'], { parallelGroup: 'impl', model: 'deepseek/deepseek-chat' }),
    step('tests', 'Write the --json tests', 'worker', ['scout'], { parallelGroup: 'impl' }),
    step('docs', 'Document --json in the README', 'worker', ['flag', 'tests']),
  ];
}

export function baseGoal(overrides: Partial<GoalView> = {}): GoalView {
  return {
    id: GOAL_ID,
    goal: 'Add a --json output flag to the CLI, with tests and docs',
    phase: 'planning',
    mode: 'single_pass',
    autoDeploy: false,
    concurrency: 4,
    maxTasks: 64,
    modelConcurrency: {},
    roleModels: {},
    parentModel: 'anthropic/claude-sonnet-4',
    iteration: 0,
    maxIterations: 0,
    planRevision: 0,
    maxPlanRevisions: 0,
    activeRunIds: [],
    message: 'planning',
    verdicts: [],
    certified: false,
    remainingGaps: [],
    startedAt: STARTED_AT,
    ...overrides,
  };
}

function plan(steps = goalSteps()): NonNullable<GoalView['plan']> {
  return {
    summary: 'Find where the CLI prints its results, add a --json flag that prints one JSON object, test it, and document it.',
    steps,
    risks: ['Existing scripts parse the plain-text output'],
    validation: ['npm test passes', '`cli --json` prints valid JSON'],
    version: 3,
    number: 1,
  };
}

/** A goal worker as the reducer keeps it: a single run whose parent is the goal, with no `subagent` card. */
export function goalWorker(id: string, agent: string, task: string, overrides: Partial<SubagentItem> = {}): SubagentItem {
  return {
    kind: 'subagent',
    id,
    runId: GOAL_ID,
    parentRunId: GOAL_ID,
    mode: 'single',
    agent,
    agents: [agent],
    task,
    depth: 1,
    phase: 'streaming',
    state: 'running',
    toolCount: 2,
    tokensIn: 1800,
    tokensOut: 420,
    startedAt: STARTED_AT + 30_000,
    elapsedMs: 42_000,
    target: `subagent-${agent}-${id.replace(/-/g, '')}`,
    ...overrides,
  };
}

export function planningState(): SessionState {
  return goalSessionState(baseGoal({ phase: 'planning', message: 'Goal mode: planning…' }));
}

export function planReadyState(): SessionState {
  return goalSessionState(baseGoal({ phase: 'plan_ready', message: 'plan ready', plan: plan() }));
}

/** Wave 2 running: the scout done, both workers going, one with a pending write approval. */
export function runningWave2State(): SessionState {
  const steps = goalSteps();
  steps[0] = {
    ...steps[0],
    status: 'done',
    runId: 'run-g1',
    summary: 'The CLI prints through src/cli/output.ts; flags are parsed in src/cli/args.ts.',
  };
  steps[1] = { ...steps[1], status: 'running', runId: 'run-g2' };
  steps[2] = { ...steps[2], status: 'running', runId: 'run-g3' };
  const approval: ApprovalItem = {
    kind: 'approval',
    id: 'apv-g3',
    toolCallId: 'sa:run-g3:call_1',
    childRunId: 'run-g3',
    agent: 'worker',
    tool: 'write_file',
    risk: 'destructive',
    args: JSON.stringify({ path: 'test/cli-json.test.ts', content: "import { test } from 'node:test';\n" }),
    diff: "--- a/test/cli-json.test.ts\n+++ b/test/cli-json.test.ts\n@@ -0,0 +1 @@\n+import { test } from 'node:test';\n",
    createdAt: STARTED_AT + 60_000,
    state: 'pending',
  };
  const items: TranscriptItem[] = [
    goalWorker('run-g0', 'scout', 'Quick read-only reconnaissance of the goal', { state: 'completed', phase: 'done', elapsedMs: 9_000 }),
    goalWorker('run-g1', 'scout', steps[0].task, { state: 'completed', phase: 'done', summary: steps[0].summary, elapsedMs: 28_000 }),
    goalWorker('run-g2', 'worker', steps[1].task, { model: 'deepseek/deepseek-chat' }),
    goalWorker('run-g3', 'worker', steps[2].task, { phase: 'tool', tool: 'write_file' }),
    {
      kind: 'assistant',
      id: 'sa:run-g2:m0',
      childRunId: 'run-g2',
      text: 'Adding the flag to `src/cli/args.ts` first.',
      thinking: '',
      streaming: true,
    },
    {
      kind: 'tool',
      id: 'sa:run-g2:call_1',
      childRunId: 'run-g2',
      name: 'read_file',
      args: JSON.stringify({ path: 'src/cli/args.ts' }),
      status: 'success',
      files: [],
    },
    approval,
  ];
  return goalSessionState(
    baseGoal({
      phase: 'running',
      message: 'wave 2 — dispatching steps',
      plan: plan(steps),
      activeRunIds: ['run-g2', 'run-g3'],
      wave: { index: 2, stepCount: 2, doneCount: 1 },
    }),
    items,
  );
}

function finishedSteps(): GoalStepView[] {
  return goalSteps().map((s, i) => ({ ...s, status: 'done' as const, runId: `run-g${i + 1}`, summary: `${s.title}: done.` }));
}

export function certifiedState(): SessionState {
  return goalSessionState(
    baseGoal({
      phase: 'done',
      mode: 'ceo',
      iteration: 1,
      maxIterations: 3,
      planRevision: 1,
      maxPlanRevisions: 2,
      message: 'goal certified',
      plan: plan(finishedSteps()),
      verdicts: [
        { kind: 'review', ok: true, summary: 'The plan covers the flag, its tests and the docs.', iteration: 1, evidencePaths: [] },
        {
          kind: 'verify',
          ok: true,
          summary: 'Every validation criterion holds: the tests pass and `cli --json` prints valid JSON.',
          iteration: 1,
          remainingGaps: [],
          evidencePaths: [`.catalyst-code/goal-ux/artifacts/${GOAL_ID}/SUMMARY.md`],
        },
      ],
      certified: true,
      completionSummary:
        '## Done\n\n- `--json` prints one JSON object (`src/cli/output.ts`)\n- 6 new tests in `test/cli-json.test.ts`\n- README: a *JSON output* section',
      endedAt: STARTED_AT + 312_000,
    }),
  );
}

export function failedState(): SessionState {
  const steps = goalSteps();
  steps[0] = { ...steps[0], status: 'done', runId: 'run-g1', summary: 'Mapped.' };
  steps[1] = { ...steps[1], status: 'failed', runId: 'run-g2', summary: 'goal worker timed out after 600s and was cancelled' };
  steps[2] = { ...steps[2], status: 'done', runId: 'run-g3', summary: 'Tests written.' };
  steps[3] = { ...steps[3], status: 'skipped', summary: 'skipped: a dependency step failed or was skipped' };
  return goalSessionState(
    baseGoal({
      phase: 'failed',
      mode: 'ceo',
      iteration: 3,
      maxIterations: 3,
      message: 'verify budget exhausted after 3 iteration(s); last gaps: the flag is missing',
      plan: plan(steps),
      verdicts: [
        {
          kind: 'verify',
          ok: false,
          summary: 'The --json flag is not wired into the parser.',
          iteration: 3,
          remainingGaps: ['the flag is missing'],
          evidencePaths: [`.catalyst-code/goal-ux/artifacts/${GOAL_ID}/SUMMARY.md`],
        },
      ],
      remainingGaps: ['the flag is missing'],
      error: 'verify budget exhausted after 3 iteration(s); last gaps: the flag is missing',
      endedAt: STARTED_AT + 1_200_000,
    }),
  );
}

/** The dev page's goal states, by name. */
export const GOAL_FIXTURES = {
  planning: planningState,
  'plan-ready': planReadyState,
  'running-wave-2': runningWave2State,
  certified: certifiedState,
  failed: failedState,
} as const;
