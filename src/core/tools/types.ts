/** The contract between the core's tools and the agent loop that runs them. */
import type { AskQuestion } from '../../protocol';
import type { SubagentHost } from '../agents/subagentHost';
import type { IntercomBus } from '../intercom/intercomBus';
import type { MemoryStore } from '../memory/memoryStore';
import type { WebAccess } from '../web/webAccess';
import type { LoadedTools } from './loadedTools';

export type ToolKind = 'readonly' | 'destructive';

export type ToolStatus = 'success' | 'denied' | 'cancelled' | 'timed_out' | 'failed' | 'stale' | 'partially_completed';

export interface FileChange {
  /** Workspace-relative, forward slashes. */
  path: string;
  unified_diff?: string;
  tool: string;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model reads. */
  output: string;
  status: ToolStatus;
  /** Unified diff old → new for write_file, edit and patch. */
  diff?: string;
  fileChanges: FileChange[];
  /** The turn ends after this call (finish); later calls of the same model message are not run. */
  endsTurn?: true;
}

export interface TodoItem {
  subject: string;
  status: 'pending' | 'in_progress' | 'completed';
  content?: string;
}

export type { AskQuestion } from '../../protocol';

export interface ToolContext {
  /** Absolute, canonical (realpath) workspace root. */
  workspace: string;
  /** The run's cancellation. */
  signal: AbortSignal;
  bashTimeoutSecs: number;
  maxBashTimeoutSecs: number;
  /** The diagnostics tool's timeout (--diag-timeout). */
  diagTimeoutSecs: number;
  /** Default 'bash'. */
  shell?: string;
  requestSudo(command: string): Promise<{ approved: boolean; password?: string }>;
  ask(questions: AskQuestion[]): Promise<Record<string, string> | null>;
  todos: { get(): TodoItem[]; set(items: TodoItem[]): void };
  /** The session's deferred tools enabled with load_tools. */
  loadedTools: LoadedTools;
  /** The durable memories of the system prompt (workspace and global). */
  memory: MemoryStore;
  /** Where the sessions of this workspace publish their presence (upstream's ~/.config/catalyst-code/presence/<hash>/). */
  presenceDir: string;
  /**
   * The user's edited FULL new content for write_file/edit/patch: written instead of the model's result, and the
   * output tells the model the user modified its proposal, with the diff of what was written.
   */
  editedContent?: string;
  /**
   * Runs one inner call through the approval gate, as its own tool call `<callId>.<n>`. Given to every tool once its own
   * call was approved (a bulk tool, `gatesInnerCalls`, asks no approval of its own).
   */
  runInner?(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The id of the tool call being run (set by the gate). */
  callId?: string;
  /** The nesting depth of the agent running the tool: 0 for the main agent, 1 for its children… */
  depth: number;
  /** Runs child agents for the `subagent` tool; absent where this core cannot (or may not) start any. */
  subagents?: SubagentHost;
  /** A child's own end of the intercom (contact_supervisor, intercom); absent for the main agent. */
  intercom?: ToolIntercom;
  /** The goal `goal_write_plan` writes to: given only to a goal's planning turn. */
  goalPlan?: GoalPlanWriter;
  /** The web tools' policy, limits and search keys (fetch, web_search); absent where a core gives none. */
  web?: WebAccess;
}

/**
 * What a planning turn's tool (`goal_write_plan`, goal/goalWritePlanTool.ts) asks of the plan it writes: the tool result
 * (the plan accepted, or the error the model reads).
 */
export interface GoalPlanWriter {
  writePlan(args: Record<string, unknown>): { ok: boolean; output: string };
}

export interface ToolIntercom {
  /** The child's target, `subagentTarget(runId, agent)`. */
  target: string;
  bus: IntercomBus;
}

export interface ToolSchema {
  name: string;
  description: string;
  parameters: object;
}

/** What a call touches, as the model wrote it: paths for confinement and approvals and, for bash, the command. */
export interface ToolTargets {
  paths: string[];
  command?: string;
  /** For a tool that touches no path or command: what its permission rules and `allow_pattern` answers match (fetch's URL, web_search's query). */
  subject?: string;
}

/** Everything about one tool: its file declares all of it, and the registry only lists it. */
export interface ToolDefinition {
  name: string;
  /** Must agree with upstream's read-only list (research §4.3); the approval gate prompts for 'destructive' tools. */
  kind: ToolKind;
  /** Upstream's deferred tools stay out of the model's schema until load_tools enables them in the session. */
  deferred?: true;
  /**
   * A bulk tool: it asks for no approval of its own, but runs each of its inner calls through the gate (ctx.runInner),
   * so each file is approved, reviewed and checkpointed like a direct call.
   */
  gatesInnerCalls?: true;
  /** Runs concurrently with the other parallel-safe calls that lead a model message (upstream's read wave). */
  parallelSafe?: true;
  /**
   * Who is offered the tool: `main`, the main agent only (`ask`: a child cannot ask the user, it contacts its
   * supervisor); `child`, children only, added while the intercom bridge is on (its tools); absent, both.
   */
  audience?: 'main' | 'child';
  /** Starts child agents (`subagent`, `spawn`): offered to a child only while it may still nest. */
  startsChildren?: true;
  /**
   * A file tool confined to its workspace: in a child's own worktree, under approval mode `destructive`, it runs
   * without a prompt, since its changes reach the main tree only as proposals back, which are the review.
   */
  worktreeUnprompted?: true;
  /** Known to the gate but offered only by the turn that adds it (TurnExtras): never listed, never loadable. */
  turnOnly?: true;
  /**
   * Its permission rules' patterns are path globs over its first path (`write_file(src/**)`, picomatch; a path that
   * climbs out is never allowed); other tools' match their target with plain wildcards.
   */
  pathRules?: true;
  schema: ToolSchema;
  /** Reads the model's raw arguments leniently (never throws): execute reports a malformed argument. */
  targets(args: Record<string, unknown>): ToolTargets;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}
