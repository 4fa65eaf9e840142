/** A goal's state as upstream's `GoalMode` keeps it (research A:914-930): what `goal_state` and `goal_plan` show. */
import type { GoalPlanStep } from '../../protocol';

export type GoalPhase =
  | 'idle'
  | 'planning'
  | 'reviewing'
  | 'plan_ready'
  | 'deploying'
  | 'running'
  | 'synthesizing'
  | 'verifying'
  | 'replanning'
  | 'blocked'
  | 'done'
  | 'failed'
  | 'cancelled';

export type StepStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

/** One step of the accepted plan, as deployed (`goal_state.prompts[]`). */
export interface GoalStepPrompt {
  step_id: string;
  agent: string;
  title: string;
  task: string;
  model: string | null;
  status: StepStatus;
  run_id: string | null;
  summary: string | null;
}

/** A validated plan step: every field `goal_plan.steps[]` carries. */
export interface PlanStep extends Required<Pick<GoalPlanStep, 'id' | 'agent' | 'title' | 'task'>> {
  model: string | null;
  depends_on: string[];
  parallel_group: string | number | null;
}

export interface GoalPlan {
  summary: string;
  steps: PlanStep[];
  risks: string[];
  validation: string[];
}

/** What `start_goal` settles once (its validated fields). */
export interface GoalSettings {
  goal: string;
  model: string;
  concurrency: number;
  maxTasks: number;
  allowedModels: string[];
  allowedProviders: string[];
  autoDeploy: boolean;
  /** The Control Center loop: self-review, verify and re-plan until certified (upstream's `ceo_mode`). */
  ceoMode: boolean;
  maxIterations: number;
  maxPlanRevisions: number;
  roleModels: { planner: string | null; worker: string | null; reviewer: string | null };
  modelConcurrency: Record<string, number>;
  reasoningEffort: string;
}

export interface Goal {
  id: string;
  settings: GoalSettings;
  phase: GoalPhase;
  version: number;
  plan: GoalPlan | undefined;
  prompts: GoalStepPrompt[];
  activeRunIds: string[];
  error: string | null;
  parentModel: string;
  /** revise_goal's feedback, or the self-review's or verifier's, given to the next planning turn. */
  feedback: string | null;
  /** Verify → re-plan rounds spent (CEO). */
  iteration: number;
  /** Self-review → revise rounds spent (CEO). */
  planRevision: number;
  reviewVerdict: GoalVerdict | null;
  verifyVerdict: GoalVerdict | null;
  /** The last verify's gaps, given to the re-planning turn. */
  remainingGaps: string[];
  selfReviewFeedback: string | null;
  certified: boolean;
  /** What the speculative scout found, if it finished before the plan was written: given to each deployed step. */
  scoutFindings: string | null;
}

/** A review or verify verdict as `goal_state` carries it (upstream's `GoalVerdict`). */
export interface GoalVerdict {
  ok: boolean;
  summary: string;
  evidence_paths: string[];
  at: number;
}

/** Any phase but idle, done, failed and cancelled (upstream's `is_active`). */
export function isActive(phase: GoalPhase): boolean {
  return phase !== 'idle' && phase !== 'done' && phase !== 'failed' && phase !== 'cancelled';
}
