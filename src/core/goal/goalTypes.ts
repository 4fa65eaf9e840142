/** A goal's state as upstream's `GoalMode` keeps it (research A:914-930), and the port goal mode runs through (`GoalHost`). */
import type { GoalPlanStep } from '../../protocol';
import type { ModelRoute } from '../subagents/childRunner';
import type { SubagentHost } from '../agents/subagentHost';
import type { ChatMessage } from '../providers/types';
import type { RunEvent, SessionEvent } from '../runtime/eventSink';
import type { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionFile';
import type { ToolContext, ToolDefinition } from '../tools/types';

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

/** A turn goal mode starts in the session's turn slot (planning, self-review, verify, wrap-up). */
export interface GoalTurnRequest {
  prompt: string;
  model: string;
  reasoningEffort: string;
  /** Offered besides the usual tools, to this turn only (goal_write_plan). */
  tools?: readonly ToolDefinition[];
  /** Added to every tool call's context (the plan writer, the CEO's fixed `ask` answer). */
  toolContext?: Partial<ToolContext>;
  /** When the turn has ended, before its `done` (also when it was cancelled). */
  onEnd(scope: RunScope): void;
}

/**
 * What goal mode needs of the core it runs in: the port goal/ declares and app/goalHost.ts implements over the
 * runtime, so goal mode names neither the runtime nor a protocol handler (and a test can hand it a fake).
 */
export interface GoalHost {
  /** The workspace: the goal's artifacts and summaries are written under it. */
  readonly workspace: string;
  sessionId(): string;
  /** An event outside any run. */
  emit(event: SessionEvent): void;
  /** An event in `scope`'s run (its run_id and sequence). */
  emitInRun(scope: RunScope, event: RunEvent): void;
  log(message: string): void;
  /** The session's running turn, if any. */
  activeRun(): RunScope | undefined;
  /** Starts a turn now; its scope, or undefined when it could not start (the reason and `done` have been sent). */
  startTurn(turn: GoalTurnRequest): RunScope | undefined;
  /** Cancels the session's running turn, if any, and its subagents (`cancel_goal`). */
  cancelActive(): void;
  /** The snapshot before a deploy's workers run; a failure or an overrun only informs. */
  checkpointBeforeDeploy(goalId: string, signal: AbortSignal): Promise<void>;
  /** Runs subagents on `route` as children of `root` (a deploy's or the scout's root run). */
  childHost(route: ModelRoute, root: RunScope): SubagentHost;
  /** Stops every subagent under `root`, and their pending approvals. */
  cancelChildren(root: RunScope): void;
  /** The provider serving `model`, or undefined when none does. */
  route(model: string): ModelRoute | undefined;
  /** The ids of the listed models (empty before a list is known). */
  knownModels(): string[];
  /** The names of the agents a plan step may use. */
  agentNames(): string[];
  /** The session's messages (a goal turn's last answer is read from them). */
  messages(): readonly ChatMessage[];
  /** Journals a run in the session file. */
  recordRun(record: RunRecord): void;
  /** How long a deploy's worker may run. */
  workerTimeoutSecs(): number;
  /** Installs who decides, before the user is asked, whether a child's need_decision is answered automatically. */
  onNeedDecision(autoResolve: (from: string, message: string) => boolean): void;
}
