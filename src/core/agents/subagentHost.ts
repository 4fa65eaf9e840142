/**
 * What the `subagent` tool asks of the core: run one child agent, or open a batch/chain run that groups children. The
 * host a tool gets in `ToolContext.subagents` is bound to the calling run (the foreground turn, or a child that
 * nests), so every child it starts joins that run's cancellation tree and its events count against the root run.
 */
import type { AgentDefinition } from './types';
import type { SubagentSettings } from '../config/coreConfig';
import type { WorktreeEvent } from '../worktrees/worktree';

export type ChildState = 'completed' | 'failed' | 'cancelled';

/** How a run was started: each parallel child and each chain step is itself a `single` run (its own subagent_start). */
export type SubagentMode = 'single' | 'parallel' | 'chain';

export interface ChildSpec {
  agent: AgentDefinition;
  task: string;
  /** The tool's `model` argument; else the agent's model, its fallbacks, then the parent's model. */
  model?: string;
  context: 'fresh' | 'fork';
  /** The child's depth: the calling agent's `ToolContext.depth` + 1. */
  depth: number;
  /** The nesting limit of this child's subtree (config, env, and the agent's `maxSubagentDepth`): `subagent` is offered to the child only while `depth < maxDepth`. */
  maxDepth: number;
  /** From `allocateRunId()`, or `<batch>-<i>` / `<chain>-<step>`. */
  runId: string;
  /** The calling run (`host.runId`) for a direct child; the batch or chain run for its children. */
  parentRunId: string;
  /** The `subagent` tool call that started it (`ToolContext.callId`). */
  toolCallId: string;
  /** A worktree root the child's tools are confined to, instead of the parent's workspace. */
  workspace?: string;
  /** Fires to stop this child alone (e.g. a chain step); the parent's cancellation always stops it. */
  signal?: AbortSignal;
  /** Its label in `runtime_status.resources` when not `<agent>: <task>` (the goal's speculative scout). */
  resourceLabel?: string;
}

export interface ChildResult {
  ok: boolean;
  /** What the parent model reads: the child's final text, or the error (`[subagent aborted]`, `subagent stream error: …`). */
  output: string;
  state: ChildState;
}

export interface GroupSpec {
  /** From `allocateRunId()`. */
  runId: string;
  mode: Exclude<SubagentMode, 'single'>;
  agents: string[];
  /** `parallel (N tasks)` or `chain (N steps)`. */
  task: string;
  toolCallId: string;
  /** The run it belongs to: `host.runId` when absent; the chain's id for a chain's parallel step. */
  parentRunId?: string;
}

/** A batch or chain run: its `subagent_start` was emitted; its children use `runId` as their `parentRunId`. */
export interface ChildGroup {
  readonly runId: string;
  /** Aborts when the group (or anything above it) is cancelled. */
  readonly signal: AbortSignal;
  /**
   * Emits the group's `subagent_done` (dropped if the root run was cancelled meanwhile). A group's carries no summary,
   * but for a batch that failed before any child ran (its worktrees could not be made): then the failure, as upstream.
   */
  finish(state: ChildState, failure?: string): void;
}

export interface SubagentHost {
  /** The calling run: the foreground run, or the child whose tool call this is. */
  readonly runId: string;
  /** The calling agent's depth: 0 for the main agent. */
  readonly depth: number;
  /** A new process-wide `run-<hex counter>` id. */
  allocateRunId(): string;
  /** Runs one child to its end; never throws (a failure is a failed result). */
  runChild(spec: ChildSpec): Promise<ChildResult>;
  /** Opens a parallel batch or a chain: emits its `subagent_start{mode}`. */
  openGroup(spec: GroupSpec): ChildGroup;
  /** An `info` event in the calling run (e.g. `chain step 0+1: …`). */
  info(message: string): void;
  /** The agents a call can name, read from disk now: `discoverAgents(agentDirs(config.homeDir, rt.workspace))` (agents/discovery.ts). */
  agents(): AgentDefinition[];
  /** `config.subagents`: the parallel caps, and the nesting limit (a child's host: its subtree's limit, `ChildSpec.maxDepth`). */
  readonly settings: SubagentSettings;
  /** A `worktree_*` event of a child about to start or just ended: in the calling run, keeping the child's run_id. */
  emitWorktree(event: WorktreeEvent): void;
  /** The session's subagent runs, live and the last 64 ended, in start order (`status`, `peek`). */
  runs(): SubagentRunInfo[];
  /** Cancels a live run and its subtree (`paused` until it stops, then `cancelled`); false when it is not live. */
  interrupt(runId: string): boolean;
  /** Posts `message` from the orchestrator to a live child's mailbox (read before its next model request); false when it is not live. */
  steer(runId: string, message: string): boolean;
}

/** What the management actions see of a run. */
export interface SubagentRunInfo {
  readonly runId: string;
  readonly parentRunId: string;
  /** Empty for a batch or chain. */
  readonly agent: string;
  readonly agents: string[];
  readonly mode: SubagentMode;
  readonly task: string;
  /** Its `runtime_status` label, when not `<agent>: <task>`. */
  readonly resourceLabel?: string;
  /** The intercom target; empty for a batch or chain. */
  readonly target: string;
  readonly depth: number;
  state: 'running' | 'paused' | ChildState;
  readonly startedAt: number;
  endedAt?: number;
  /** The latest non-empty replies (at most 3, oldest first). */
  lastTurns: string[];
  /** The latest tool names (at most 3, oldest first). */
  lastTools: string[];
  messagesCount: number;
  /** The child's cumulative prompt + completion tokens. */
  estimatedTokens: number;
}
