/**
 * What goal mode needs of the core it runs in: the port goal/ declares and app/goalHost.ts implements over the runtime,
 * so goal mode names neither the runtime nor a protocol handler, and a test can hand it a fake.
 */
import type { ModelRoute } from '../subagents/childRunner';
import type { SubagentHost } from '../agents/subagentHost';
import type { ChatMessage } from '../providers/types';
import type { RunEvent, SessionEvent } from '../runtime/eventSink';
import type { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionFile';
import type { ToolContext, ToolDefinition } from '../tools/types';

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

/** The core as goal mode sees it (one per runtime). */
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
