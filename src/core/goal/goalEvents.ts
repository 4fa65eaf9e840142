/** The goal's events, built from its state with upstream's exact fields (research A:914-930). */
import type { SessionEventOf } from '../runtime/eventSink';
import type { Goal, GoalStepPrompt } from './goalTypes';

/** `goal_state`: the whole goal; without one, upstream's idle form (`cleared`: the form a reset sends). */
export function goalStateEvent(goal: Goal | undefined, cleared = false): SessionEventOf<'goal_state'> {
  if (!goal) return cleared ? CLEARED_GOAL_STATE : IDLE_GOAL_STATE;
  const s = goal.settings;
  return {
    type: 'goal_state',
    id: goal.id,
    goal: s.goal,
    phase: goal.phase,
    concurrency: s.concurrency,
    max_tasks: s.maxTasks,
    allowed_models: s.allowedModels,
    allowed_providers: s.allowedProviders,
    auto_deploy: s.autoDeploy,
    ceo_mode: s.ceoMode,
    mode: s.ceoMode ? 'ceo' : 'single_pass',
    iteration: goal.iteration,
    max_iterations: s.maxIterations,
    plan_revision: goal.planRevision,
    max_plan_revisions: s.maxPlanRevisions,
    review_verdict: goal.reviewVerdict && { ...goal.reviewVerdict },
    verify_verdict: goal.verifyVerdict && { ...goal.verifyVerdict },
    remaining_gaps: [...goal.remainingGaps],
    self_review_feedback: goal.selfReviewFeedback,
    certified: goal.certified,
    role_models: s.roleModels,
    model_concurrency: s.modelConcurrency,
    prompts: goal.prompts.map((p) => ({ ...p })),
    active_run_ids: [...goal.activeRunIds],
    version: goal.version,
    error: goal.error,
    parent_model: goal.parentModel,
  };
}

/** Upstream's goal before any start_goal (its `GoalMode` defaults, every field); no `goal_plan` follows it. */
const IDLE_GOAL_STATE: SessionEventOf<'goal_state'> = Object.freeze({
  type: 'goal_state',
  id: '',
  version: 0,
  goal: '',
  phase: 'idle',
  prompts: [],
  auto_deploy: true,
  ceo_mode: false,
  mode: 'single_pass',
  iteration: 0,
  max_iterations: 0,
  plan_revision: 0,
  max_plan_revisions: 0,
  review_verdict: null,
  verify_verdict: null,
  remaining_gaps: [],
  self_review_feedback: null,
  certified: false,
  concurrency: 4,
  max_tasks: 8,
  allowed_models: [],
  allowed_providers: [],
  active_run_ids: [],
  parent_model: '',
  error: null,
  role_models: { planner: null, worker: null, reviewer: null },
  model_concurrency: {},
});

/** What reset, clear, new_session, undo and load_session send: only the fields of upstream's `clear_goal`. */
const CLEARED_GOAL_STATE: SessionEventOf<'goal_state'> = Object.freeze({
  type: 'goal_state',
  id: '',
  goal: '',
  phase: 'idle',
  concurrency: 0,
  max_tasks: 0,
  allowed_models: [],
  allowed_providers: [],
  auto_deploy: true,
  prompts: [],
  active_run_ids: [],
  version: 0,
  error: null,
  parent_model: '',
});

/** The empty `work_state` of a cleared goal. */
export function emptyWorkState(version: number): SessionEventOf<'work_state'> {
  return { type: 'work_state', version, goal: '', done: [], in_progress: [], next: [], recent_files: [], last_activity: '' };
}

export function goalPlanEvent(goal: Goal): SessionEventOf<'goal_plan'> | undefined {
  if (!goal.plan) return undefined;
  const { summary, steps, risks, validation } = goal.plan;
  return {
    type: 'goal_plan',
    id: goal.id,
    summary,
    steps: steps.map((s) => ({ ...s, model: s.model ?? undefined, parallel_group: s.parallel_group ?? undefined })),
    risks,
    validation,
    version: goal.version,
  };
}

/** `work_state` from the goal's progress: steps as `<title> — <agent>`, failed and skipped ones marked, in `done`. */
export function goalWorkState(goal: Goal, version: number): SessionEventOf<'work_state'> {
  const label = (p: GoalStepPrompt) => `${p.title} — ${p.agent}`;
  const done = goal.prompts.flatMap((p) =>
    p.status === 'done'
      ? [label(p)]
      : p.status === 'failed'
        ? [`FAILED: ${label(p)}`]
        : p.status === 'skipped'
          ? [`skipped: ${label(p)}`]
          : [],
  );
  const deploying = goal.phase !== 'planning' && goal.phase !== 'plan_ready' && goal.phase !== 'reviewing';
  const next = deploying ? goal.prompts.filter((p) => p.status === 'pending').map(label) : (goal.plan?.steps.map((s) => s.title) ?? []);
  return {
    type: 'work_state',
    version,
    goal: goal.settings.goal.slice(0, 240),
    done,
    in_progress: goal.prompts.filter((p) => p.status === 'running').map(label),
    next,
    recent_files: [],
    last_activity: `goal:${goal.phase}`,
  };
}
