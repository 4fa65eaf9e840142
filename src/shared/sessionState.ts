/**
 * The session model: everything the chat UI shows, derived from a core's events by `sessionReducer`
 * (src/client/state/sessionReducer.ts). The host keeps it, the webview receives a snapshot and then patches (statePatch.ts).
 * Pure types only: the webview bundles this file.
 */

import { TOOL_STATUSES, type ApprovalMode } from '../protocol/common';
import type { GoalView, WorkStateView } from './goalState';
import type { PluginsView } from './pluginState';

export { APPROVAL_DECISIONS, APPROVAL_MODES, type ApprovalDecision, type ApprovalMode } from '../protocol/common';

/** `catalystCode.core.kind`: the embedded core, an upstream `catcode-core`, an SCV server. */
export const CORE_KINDS = ['embedded', 'catalyst', 'scv'] as const;
export type CoreKind = (typeof CORE_KINDS)[number];
export type CoreStatus = 'stopped' | 'starting' | 'ready' | 'crashed' | 'restarting';
export type RunStatus = 'idle' | 'running' | 'waiting_approval' | 'waiting_input';
/** A tool card: live states before the core's `tool_result`, then its status. */
export const TOOL_CARD_STATUSES = ['streaming', 'pending', 'awaiting_approval', 'running', ...TOOL_STATUSES] as const;
export type ToolCardStatus = (typeof TOOL_CARD_STATUSES)[number];

/**
 * What marks an item as a subagent's: its child run and agent. Child items keep `runId` = the ROOT run (the user's
 * turn), so ending that run closes them; they render inside their SubagentItem's card, not in the main flow.
 */
export interface ChildRunFields {
  /** The child run (`subagent_*.run_id`) this item belongs to. */
  childRunId?: string;
  /** The child's agent, for labels ("— worker (subagent)"). */
  agent?: string;
}
/** A child's UserItem is the orchestrator's steering message to it (`subagent_message{role:"system"}`). */
export interface UserItem extends ChildRunFields {
  kind: 'user';
  id: string;
  text: string;
  images: number;
  /** How a model that cannot see got the images: handed to a vision model ("→ m") or "described by m"; the core's info. */
  vision?: { label: string; detail: string };
}
export interface AssistantItem extends ChildRunFields {
  kind: 'assistant';
  id: string;
  runId?: string;
  text: string;
  thinking: string;
  streaming: boolean;
  /** The last reply of a finished turn: the turn's `cost_update` (usd null: a price is unknown). */
  turnCost?: TurnCost;
}
export interface TurnCost {
  usd: number | null;
  /** Our core's turn_requests; absent (upstream's core): the tokens are the turn's last request's only. */
  requests?: number;
  tokensIn: number;
  tokensOut: number;
}
export interface ToolItem extends ChildRunFields {
  kind: 'tool';
  /** tool_call_id; a child's tool is `sa:<child run id>:<call_id>` (call ids collide across children). */
  id: string;
  runId?: string;
  name: string;
  args: string /* the model's full raw JSON */;
  status: ToolCardStatus;
  output?: string;
  diff?: string;
  files: string[];
  /** Display-only status lines while it runs (SCV's `tool.progress`), newest last, at most TOOL_PROGRESS_LINES. */
  progress?: string[];
  /** The bulk call this one runs inside (a bulk tool's inner call, id `<outer id>.<n>`): its card nests under that one. */
  outerId?: string;
}
/** A child's approval (`childRunId` set) stays in the main flow, labelled with its agent; `toolCallId` is then the child ToolItem's id. */
export interface ApprovalItem extends ChildRunFields {
  kind: 'approval';
  id: string /* request_id */;
  toolCallId: string;
  runId?: string;
  tool: string;
  risk: string;
  args: string /* full args from the matching tool_call when known, else the core's ≤2000-char preview */;
  diff?: string;
  createdAt: number;
  state: 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';
  decision?: string;
  /** A suggested allow_pattern: the command prefix for bash, a path glob for file tools. */
  suggestedPattern?: string;
  /** Approved with the user's edited content (the reviewed proposal differed from the model's). */
  edited?: boolean;
  /** The core's error about this answer, e.g. "approval pattern exceeds or does not match the requested scope". */
  error?: string;
  /** The server's one-line description of the call (SCV: "Replace src/a.ts (120 bytes)", "Run shell command: …"). */
  summary?: string;
  /** The bulk call whose inner call this approves (see ToolItem.outerId). */
  outerId?: string;
}
export interface AskQuestionView {
  id: string;
  prompt: string;
  type: 'select' | 'text';
  options?: string[];
  allowCustom?: boolean;
  placeholder?: string;
  required?: boolean;
}
export interface AskItem {
  kind: 'ask';
  id: string;
  questions: AskQuestionView[];
  state: 'pending' | 'answered' | 'skipped' | 'cancelled';
  answers?: Record<string, string>;
}
export interface SudoItem {
  kind: 'sudo';
  id: string;
  command: string;
  state: 'pending' | 'answered' | 'cancelled';
}
export interface NoticeItem {
  kind: 'notice';
  id: string;
  level: 'info' | 'warning' | 'error';
  text: string;
  code?: string;
  /** What the user can do about it: a button in the card. */
  action?: 'login' | 'restartCore' | 'showLog' | 'openSettings';
}
export interface ApprovalEscalations {
  /** "destructive" / "readonly". */
  kinds: string[];
  patterns: Array<{ tool: string; pattern: string }>;
}
export interface BashItem {
  kind: 'bash';
  id: string;
  command: string;
  output: string;
  ok: boolean;
  /** `!!cmd`: the output was shown but kept out of the model's context. */
  excludedFromContext?: boolean;
}
export interface CheckpointItem {
  kind: 'checkpoint';
  id: string;
  label: string;
  auto: boolean;
  runId?: string;
  restored?: boolean;
  /** Unix milliseconds, when the core said (`created_at`) or the id tells (`cp-<secs>-…`). */
  createdAt?: number;
  /** What the last restore of (part of) it did, when the core reported it. */
  restoredFiles?: number;
  removedFiles?: number;
  /** Deleted (`checkpoint_deleted`): the row stays for the record, without actions. */
  deleted?: boolean;
}

export const SUBAGENT_STATES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type SubagentState = (typeof SUBAGENT_STATES)[number];

/**
 * One child run (or a parallel batch / chain that groups children), flat and append-only in `items` so a child's
 * update patches one item. Its replies and tools are AssistantItems/ToolItems with `childRunId` = this `id`.
 */
export interface SubagentItem {
  kind: 'subagent';
  /** The child's run id (`run-3`, a parallel child `run-3-0`, a chain step `run-4-1`). */
  id: string;
  /** The root run: the user's turn that called the `subagent` tool. */
  runId?: string;
  /** The run that spawned this one: the foreground run, a batch, a chain, or (nested) another child. */
  parentRunId?: string;
  /** The parent's `subagent` tool card (ToolItem id) this child renders under; for nested children, the card of its top-level ancestor. */
  parentToolCallId?: string;
  /** 'single' for a child (each parallel child and chain step is one); 'parallel' | 'chain' for the group of them. */
  mode: string;
  /** The agent of a single run; '' for a group. */
  agent: string;
  /** A group's agents (a single run: `[agent]`). */
  agents: string[];
  task: string;
  model?: string;
  /** 0 for a direct child of the foreground run. */
  depth: number;
  /** The last `subagent_progress` phase: start | steered | streaming | tool | tool_end | done. */
  phase: string;
  state: SubagentState;
  /** The tool it is running (phase 'tool'). */
  tool?: string;
  toolCount: number;
  /** Cumulative for the child. */
  tokensIn: number;
  tokensOut: number;
  /** Unix ms. */
  startedAt: number;
  elapsedMs: number;
  /** Single runs: the child's final summary (subagent_done.summary). */
  summary?: string;
  /** Its own requests' cost from `subagent_done` (null: a price is unknown; absent: the core sent none). */
  costUsd?: number | null;
  /** Its intercom target and the run_id of its approval requests (subagentTarget(id, agent)). */
  target: string;
  worktree?: SubagentWorktree;
}
export interface SubagentWorktree {
  path?: string;
  branch?: string;
  /** worktree_seeded.paths (`deleted:<rel>` for a removal). */
  seeded?: string[];
  /** worktree_promoted.paths: what came back to the workspace. */
  promoted?: string[];
  cleaned?: boolean;
}

/**
 * A child's message to the orchestrator (`intercom_message`). `need_decision` waits for `intercomReply` (pending);
 * `progress_update` is `info`. There is no timeout event: `expired` is inferred from the child's failing
 * contact_supervisor result or the core's "no pending intercom ask" error.
 */
export interface IntercomItem extends ChildRunFields {
  kind: 'intercom';
  /** The ask/message id, answered with `intercom_reply{request_id: id}`. */
  id: string;
  /** The child's target (`subagent-<agent>-<id>`). */
  from: string;
  /** The root run. */
  runId?: string;
  reason: string;
  message: string;
  state: 'pending' | 'answered' | 'expired' | 'cancelled' | 'info';
  reply?: string;
}

export type TranscriptItem =
  | UserItem
  | AssistantItem
  | ToolItem
  | ApprovalItem
  | AskItem
  | SudoItem
  | NoticeItem
  | BashItem
  | CheckpointItem
  | SubagentItem
  | IntercomItem;

/** A prompt waiting in a server-side queue (SCV): editable, reorderable, removable; `revision` guards each change. */
export interface ServerQueueEntry {
  id: string;
  revision: number;
  prompt: string;
}
/** The server's queue as last reported (SCV's `queue.*` events); absent for cores with a client-side one-deep queue. */
export interface ServerQueueView {
  entries: ServerQueueEntry[];
  paused: boolean;
}
export const TOOL_PROGRESS_LINES = 5;

export interface ModelView {
  id: string;
  name?: string;
  provider?: string;
  reasoning?: boolean;
  thinkingLevels?: string[];
  contextWindow?: number;
  vision?: boolean;
}
export interface SessionView {
  name: string;
  path: string;
  title: string;
  messages: number;
  mtime: number;
  current: boolean;
  pinned: boolean;
}

/** One project rules file in the core's system prompt (our `rules` event). */
export interface RulesFileView {
  /** Workspace-relative. */
  path: string;
  /** `agents_md`, `claude_md`, `copilot_instructions`, `copilot_path_instructions`, `clinerules`, `cursor_project_rules`, `cursorrules`. */
  source: string;
  bytes: number;
  tokens: number;
  truncated: boolean;
  /** The folder it applies to ("." for the whole workspace). */
  scope: string;
}

/** The project rules in effect: absent until a core that reads them (capability `project_rules`) sends `rules`. */
export interface RulesView {
  files: RulesFileView[];
  /** Found but not read (restricted, ignored by git, duplicate…): how many. */
  skipped: number;
  /** The sources the settings turned off. */
  disabled: string[];
}

/** One skill the core can apply (`skills`); its body stays with the core, which inlines it into apply_skill's prompt. */
export interface SkillView {
  name: string;
  description: string;
  /** SKILL.md's absolute path. */
  location: string;
  /** Where it lives: the workspace's .catalyst-code/skills or the user's ~/.catalyst-code/skills. */
  scope: 'project' | 'user';
}

export interface SessionState {
  core: { kind: CoreKind; status: CoreStatus; message?: string; version?: string; capabilities: string[]; pid?: number };
  run: { status: RunStatus; runId?: string; queued?: string };
  /** Only for cores with a server-side queue (capability `server_queue`). */
  serverQueue?: ServerQueueView;
  items: TranscriptItem[];
  models: ModelView[];
  model?: string;
  reasoningEffort: string;
  provider?: string;
  /** Our core's last 429 said the provider takes requests again then (unix seconds); the status bar shows it until then. */
  rateLimitedUntil?: number;
  authed: boolean;
  anyLoggedIn: boolean;
  approvalMode: ApprovalMode;
  /** What no longer asks on top of the mode: kinds approved "always", allow rules granted this session (absent: none seen). */
  approvalEscalations?: ApprovalEscalations;
  /** costUsd sums the priced estimates; costUnknown: some request of the session had no known price. */
  usage: { tokensIn: number; tokensOut: number; cachedTokens: number; costUsd?: number; costUnknown?: boolean };
  context?: { tokens: number; window: number; pct: number };
  sessions: SessionView[];
  rules?: RulesView;
  /** Absent until the core sends `skills` (on init and after list_skills or a marketplace change). */
  skills?: SkillView[];
  /** The session's goal (goal mode): absent until the core reports one; kept after it ends, until the core clears it. */
  goal?: GoalView;
  /** The core's plugins: absent until a core with plugins reports them (ready, plugins_list, plugin_trust_prompt…). */
  plugins?: PluginsView;
  /** The core's work summary (work_state) while a goal is set. */
  workState?: WorkStateView;
  sessionFile?: string;
  workspace?: string;
  /** Monotonic counter bumped on every reducer step that changed state (debugging aid). */
  revision: number;
}

export function initialSessionState(kind: CoreKind = 'embedded'): SessionState {
  return {
    core: { kind, status: 'stopped', capabilities: [] },
    run: { status: 'idle' },
    items: [],
    models: [],
    reasoningEffort: 'medium',
    authed: false,
    anyLoggedIn: false,
    approvalMode: 'destructive',
    usage: { tokensIn: 0, tokensOut: 0, cachedTokens: 0 },
    sessions: [],
    revision: 0,
  };
}

/** Capability names the UI checks to hide what a core lacks (derived from protocol_hello and the core kind). */
export const UI_CAPABILITIES = {
  editedContent: 'approval_edited_content',
  checkpoints: 'checkpoint',
  steer: 'steer',
  thinking: 'thinking',
  sessions: 'sessions',
  undo: 'undo',
  allowPattern: 'allow_pattern',
  /** Ours: restore_checkpoint.paths, delete_checkpoint, checkpoint_changes, checkpoint_file. */
  checkpointFiles: 'checkpoint_files',
  /** SCV: a server-side queue the user can edit, reorder, remove from and pause (`client:server_queue`). */
  serverQueue: 'server_queue',
  /** SCV: tool cards get display-only progress lines (`client:tool_progress`). */
  toolProgress: 'tool_progress',
  /** Child runs through the `subagent` tool (ours; an upstream catcode-core has them without announcing it). */
  subagents: 'subagents',
  /** intercom_message / intercom_reply (ours; upstream's core too). */
  intercom: 'intercom',
  /** list_skills, apply_skill and the skill marketplace: protocol v2's own (no core announces them), never SCV's. */
  skills: 'skills',
  /** Ours: fetch and web_search built in, and set_search_key kept in the core's memory only (never config.json). */
  runtimeSearchKeys: 'runtime_search_keys',
  /** start_goal and the other goal commands: protocol v2's own (our core announces `goal`; upstream's has them unannounced). */
  goal: 'goal',
  /** The plugin commands (list_plugins, plugin_trust_decisions, plugin_command…): our core announces `plugins`; upstream's has them unannounced. */
  plugins: 'plugins',
  /** `!cmd` / `!!cmd` (user_bash): protocol v2's own (no core announces it), never SCV's. */
  userBash: 'user_bash',
  /** Ours: list_approval_escalations / clear_approval_escalations (an upstream core's escalations are only seen as they happen). */
  approvalEscalations: 'approval_escalations',
} as const;
