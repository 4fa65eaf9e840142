/**
 * Goal mode as the UI shows it (the Control Center, the status bar, the chat's goal card), reduced from the core's
 * goal_* events and work_state only — the client keeps no command-loop state of its own, so the same UI follows our core
 * and upstream's (docs/plans/issue-16-goal-mode.md §2).
 */

export const GOAL_PHASES = [
  'idle',
  'planning',
  'reviewing',
  'plan_ready',
  'deploying',
  'running',
  'synthesizing',
  'verifying',
  'replanning',
  'blocked',
  'done',
  'failed',
  'cancelled',
] as const;
export type GoalPhaseName = (typeof GOAL_PHASES)[number];

/** Any phase but idle, done, failed and cancelled (upstream's `is_active`). */
export function goalPhaseActive(phase: GoalPhaseName): boolean {
  return phase !== 'idle' && phase !== 'done' && phase !== 'failed' && phase !== 'cancelled';
}

export const GOAL_STEP_STATUSES = ['pending', 'running', 'done', 'failed', 'skipped'] as const;
export type GoalStepStatus = (typeof GOAL_STEP_STATUSES)[number];

/** One plan step (goal_plan.steps[]) with what the deploy reported of it (goal_state.prompts[], goal_step_complete). */
export interface GoalStepView {
  id: string;
  agent: string;
  title: string;
  task: string;
  model?: string;
  dependsOn: string[];
  parallelGroup?: string;
  status: GoalStepStatus;
  /** The worker's child run: the SubagentItem with this id in `items` (its messages, tools and approvals). */
  runId?: string;
  summary?: string;
}

/** The plan under review or being deployed (goal_plan; version = the goal's version when it was written). */
export interface GoalPlanView {
  summary: string;
  steps: GoalStepView[];
  risks: string[];
  validation: string[];
  /** The goal's state counter when the plan was sent (it counts every change of the goal, not plans). */
  version: number;
  /** Which plan of the goal this is: 1 for the first, one more for each new plan (a revision, a re-plan). */
  number: number;
  /** Built from goal_state.prompts before its goal_plan came: the goal_plan that follows is the same plan. */
  fromPrompts?: boolean;
}

/** A judgement on the work: the validation reviewer's (goal_step_verdict), the CEO self-review's, the verifier's. */
export interface GoalVerdictView {
  kind: 'step' | 'review' | 'verify';
  ok: boolean;
  summary: string;
  iteration?: number;
  remainingGaps?: string[];
  evidencePaths?: string[];
}

export interface GoalView {
  id: string;
  goal: string;
  phase: GoalPhaseName;
  /** 'ceo' (plan → self-review → deploy → verify → re-plan until certified) or 'single_pass' (classic). */
  mode: 'ceo' | 'single_pass';
  autoDeploy: boolean;
  concurrency: number;
  maxTasks: number;
  modelConcurrency: Record<string, number>;
  roleModels: { planner?: string; worker?: string; reviewer?: string };
  parentModel?: string;
  iteration: number;
  maxIterations: number;
  planRevision: number;
  maxPlanRevisions: number;
  plan?: GoalPlanView;
  /** How many plans of this goal the client has seen (a revision's planning phase drops the plan, not this count). */
  planCount?: number;
  /** Runs working now (goal_state.active_run_ids). */
  activeRunIds: string[];
  /** The wave being dispatched (the last goal_phase{to:"running"} with a wave). */
  wave?: { index: number; stepCount: number; doneCount: number };
  /** The last goal_phase message ("wave 2 — dispatching steps", "goal certified"). */
  message?: string;
  verdicts: GoalVerdictView[];
  certified: boolean;
  remainingGaps: string[];
  /** goal_completion_summary.text (Markdown). */
  completionSummary?: string;
  error?: string;
  /** Unix ms: when this client first saw the goal, and when it reached a terminal phase. */
  startedAt: number;
  endedAt?: number;
  /** The estimated cost of the turns and subagents this client saw while the goal was active; costUnknown: some unpriced. */
  costUsd?: number;
  costUnknown?: boolean;
}

/** The core's compact work summary (work_state): the status bar's line while a goal runs. */
export interface WorkStateView {
  goal: string;
  done: string[];
  inProgress: string[];
  next: string[];
  recentFiles: string[];
  lastActivity: string;
}
