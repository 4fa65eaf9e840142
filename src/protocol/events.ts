// Events (core → client on stdout): all 105 of upstream's core, discriminated by `type`, in the
// order of research §1.4. Ours on top (EXTENSION_EVENT_CAPABILITIES): checkpoint_deleted, checkpoint_changes,
// checkpoint_file (capability `checkpoint_files`), subagent_delta (`subagent_stream`), rules (`project_rules`),
// approval_escalations (`approval_escalations`), each sent only to a client that announced its capability in init.
// The fields are what a conforming core emits. Nothing here validates
// input: a client reading another core must expect missing fields (upstream's own fixtures are
// bare `{type, protocol_version}` objects) and unknown types; see `LooseEvent`.
// Events whose payload upstream leaves open carry an index signature instead of guessed fields.
import type {
  AgentInfo,
  ApprovalMode,
  AskQuestion,
  CancellationReason,
  CancelledRun,
  ChatMessage,
  CheckpointInfo,
  CheckpointFileChange,
  CheckpointKind,
  ClientInfo,
  ContextConsumer,
  GoalPlanStep,
  InstallScope,
  InterruptedActivity,
  MemoryEntry,
  ModelInfo,
  PluginInfo,
  PluginTrustEntry,
  ProviderKind,
  ProviderPreset,
  RuntimeResource,
  SandboxReport,
  SearchProvider,
  SessionSummary,
  SkillInfo,
  SkillScopeName,
  InstalledSkillInfo,
  MarketplaceSkillInfo,
  ToolRisk,
  ToolStatus,
  UsageWindow,
} from './common';
import {
  CAPABILITY_APPROVAL_ESCALATIONS,
  CAPABILITY_CHECKPOINT_FILES,
  CAPABILITY_PROJECT_RULES,
  CAPABILITY_SUBAGENT_STREAM,
} from './version';

/** Lifecycle metadata the core's event sink stamps on events. */
export interface EventMetadata {
  protocol_version?: 2;
  session_id?: string;
  /** Inside a foreground run. */
  run_id?: string;
  /** Per run, from 1. */
  sequence?: number;
}

// ── Lifecycle ───────────────────────────────────────────────────────────────

export interface ReadyEvent extends EventMetadata {
  type: 'ready';
  models: ModelInfo[];
  /** The active provider has a usable key. */
  authed: boolean;
  /** Any configured provider is logged in. */
  anyLoggedIn: boolean;
  workspace: string;
  approval: ApprovalMode;
  base_url: string;
  provider: string;
  providerKind: ProviderKind | string;
  providers: string[];
  providerPresets: ProviderPreset[];
  bash_timeout_secs: number;
  auto_compact: boolean;
  /** Fraction of the context window. */
  context_compact_at: number;
  context_digest_at: number;
  /** "none" or "microsandbox". */
  sandbox: string;
  /** "bash" or "powershell". */
  shell: string;
  // The sandbox's settings: a core without a sandbox (ours: `sandbox: "none"`, `sandboxReady: false`) leaves them out,
  // as upstream's did before it had one.
  sandboxImage?: string;
  sandboxCpus?: number;
  sandboxMemoryMb?: number;
  sandboxNetworkMode?: string;
  sandboxReady: boolean;
  resumed_messages: number;
  plugins: unknown[];
  /** Project plugins not loaded and not yet decided on. */
  plugins_skipped: string[];
  /** Ours: providerKind in snake_case. */
  provider_kind?: ProviderKind | string;
  /** Ours: the active provider has a key (runtime, config or env). */
  has_key?: boolean;
  /** Ours: how long a model stream may stay silent before the attempt fails. */
  idle_timeout_secs?: number;
  /** Ours: the session file the core resumed (null when it keeps no session file). */
  session_file?: string | null;
}

export interface ProtocolHelloEvent extends EventMetadata {
  type: 'protocol_hello';
  /** The core's version, e.g. "0.2.0". */
  version: string;
  protocol_version: 2;
  min_client: string;
  client_protocol_version: number | null;
  client: ClientInfo | null;
  capabilities: string[];
}

export interface SessionRecoveredEvent extends EventMetadata {
  type: 'session_recovered';
  warnings: string[];
  interrupted_runs: string[];
  interrupted_activities: InterruptedActivity[];
}

export interface RuntimeStatusEvent extends Omit<EventMetadata, 'run_id'> {
  type: 'runtime_status';
  session_id: string;
  /** The active run, or null when idle. */
  run_id: string | null;
  discarded_stale_results: number;
  compactions: number;
  last_cancellation: CancelledRun | null;
  /** Ours on top: our core also lists its checkpoint store's background compaction (CHECKPOINT_COMPACTION_RESOURCE_KIND). */
  resources: RuntimeResource[];
  pending_approvals: number;
  pending_asks: number;
  pending_sudos: number;
}

export interface RunCancelledEvent extends EventMetadata {
  type: 'run_cancelled';
  session_id: string;
  run_id: string;
  reason: CancellationReason;
  duration_ms?: number;
  forced_abort?: boolean;
  cleanup_failures?: unknown;
}

export interface ResetEvent extends EventMetadata {
  type: 'reset';
}

export interface ErrorEvent extends EventMetadata {
  type: 'error';
  message: string;
  /** e.g. "invalid_command", "protocol_read_error", "unsupported". */
  code?: string;
  /** Ours: the checkpoint a checkpoint command's error is about (CHECKPOINT_ERROR_CODES; null when the command named none). */
  id?: string | null;
  /** Ours: the file a checkpoint command's error is about (null when the command's path was not a string). */
  path?: string | null;
  /** `invalid_goal_transition`: the goal's phase, and the phase refused. */
  from?: string;
  to?: string;
  /** Ours: a provider's 429 said when it takes requests again (unix seconds); the message says it too. */
  rate_limited_until?: number;
}

export interface InfoEvent extends EventMetadata {
  type: 'info';
  message: string;
}

// ── Turn stream ─────────────────────────────────────────────────────────────

export interface DeltaEvent extends EventMetadata {
  type: 'delta';
  text: string;
}

export interface ThinkingEvent extends EventMetadata {
  type: 'thinking';
  text: string;
}

export interface ToolCallEvent extends EventMetadata {
  type: 'tool_call';
  id: string;
  name: string;
  /** The model's full raw JSON arguments, as a string. */
  args: string;
}

export interface ToolResultEvent extends EventMetadata {
  type: 'tool_result';
  id: string;
  ok: boolean;
  output: string;
  status: ToolStatus;
  /** Unified diff, for file edits. */
  diff?: string;
}

export interface DoneEvent extends EventMetadata {
  type: 'done';
}

export interface AbortedEvent extends EventMetadata {
  type: 'aborted';
}

export interface SteerEvent extends EventMetadata {
  type: 'steer';
  prompt: string;
}

export interface ToolCallStartEvent extends EventMetadata {
  type: 'tool_call_start';
  id: string;
  index: number;
}

export interface ToolCallNameEvent extends EventMetadata {
  type: 'tool_call_name';
  index: number;
  name: string;
}

export interface ToolCallArgsEvent extends EventMetadata {
  type: 'tool_call_args';
  index: number;
  /** A streamed fragment of the raw JSON arguments. */
  args: string;
}

export interface FileChangeEvent extends EventMetadata {
  type: 'file_change';
  path: string;
  unified_diff?: string;
  tool: string;
}

export interface MetricsEvent extends EventMetadata {
  type: 'metrics';
  tokens_in: number;
  tokens_out: number;
  model: string;
  /** Final metrics only: the true prompt size. */
  prompt_tokens?: number;
  cached_tokens?: number;
  tps?: number;
  /** Mid-stream estimate. */
  tps_est?: number;
  ttft_ms?: number;
  elapsed_ms?: number;
}

export interface CostUpdateEvent extends EventMetadata {
  type: 'cost_update';
  model: string;
  tokens_in: number;
  tokens_out: number;
  cached_tokens: number;
  cache_hit_pct: number | null;
  /**
   * Our core: the turn's main-agent requests priced (models.dev or models_override); null when any request's price is
   * unknown. Upstream's core always sends null. Subagents' requests are in their `subagent_done`.
   */
  estimated_usd: number | null;
  /** Ours: the turn's main-agent requests and their tokens (upstream's fields describe only the last request). */
  turn_requests?: number;
  turn_tokens_in?: number;
  turn_tokens_out?: number;
  turn_cached_tokens?: number;
}

export interface HttpRetryEvent extends EventMetadata {
  type: 'http_retry';
  attempt: number;
  /** HTTP status of the failed attempt; absent when there was none (a dropped stream, a network error), as upstream sends it. */
  status?: number;
  /**
   * Upstream's words: for a stream that failed once open, "retryable stream error after partial output" or "stream
   * error before first token".
   */
  reason: string;
  /** Ours on top: the failure in our words when `reason` is upstream's generic stream wording (e.g. the connection lost). */
  detail?: string;
  backoff_ms: number;
  /** The partial output streamed so far is void. */
  discard_partial?: boolean;
}

export interface StuckNudgeEvent extends EventMetadata {
  type: 'stuck_nudge';
  message: string;
}

export interface SummaryRequiredEvent extends EventMetadata {
  type: 'summary_required';
  attempt: number;
  max_attempts: number;
}

export interface ReflectingEvent extends EventMetadata {
  type: 'reflecting';
  recurrence: unknown;
}

export interface DigestedEvent extends EventMetadata {
  type: 'digested';
  /** "subagent" for a child's; upstream's main loop sends none. */
  scope?: string;
  trigger: string;
  before_tokens: number;
  after_tokens: number;
  results: unknown;
  [field: string]: unknown;
}

export interface AdvisorNoteEvent extends EventMetadata {
  type: 'advisor_note';
  scope: string;
  advisor: string;
  model: string;
  severity: string;
  message: string;
}

export interface AdvisorStatusEvent extends EventMetadata {
  type: 'advisor_status';
  scope: string;
  advisor: string;
  state: string;
  model: string;
}

export interface CompactingEvent extends EventMetadata {
  type: 'compacting';
  /** "session" or "subagent" (a child's own context, run_id = the child's). Ours: upstream sends no compacting for a child. */
  scope?: string;
  /** e.g. "auto" or "manual". */
  trigger: string;
  before_tokens: number;
  context_window: number;
  threshold_tokens: number;
  hard_limit_tokens: number;
  utilization_pct: number;
  [field: string]: unknown;
}

export interface CompactedEvent extends EventMetadata {
  type: 'compacted';
  before_tokens: number;
  after_tokens: number;
  /** after_tokens is at most hard_limit_tokens. */
  within_limit: boolean;
  /** 0 when no summary replaced anything (nothing to summarize, or it would not have made the context smaller). */
  summary_chars: number;
  scope: string;
  context_window?: number;
  threshold_tokens?: number;
  hard_limit_tokens?: number;
  [field: string]: unknown;
}

// ── Interaction ─────────────────────────────────────────────────────────────

export interface ApprovalRequestEvent extends EventMetadata {
  type: 'approval_request';
  /** `apv-<seq>-<tool_call_id>`. */
  request_id: string;
  session_id: string;
  run_id: string;
  tool_call_id: string;
  tool: string;
  risk: ToolRisk;
  requested_permission: ToolRisk;
  /** Epoch milliseconds. */
  created_at: number;
  /** Redacted JSON preview of the arguments, at most 2000 chars; not the full payload. */
  args: string;
  /** Unified diff, for write_file/edit/patch when previewable; may be a placeholder. */
  diff?: string;
  /**
   * Ours: the `<plugin>/<hook>`s that rewrote this call's arguments after it was approved. The call is asked about again
   * with the rewritten `args` (same `tool_call_id`, new `request_id`); a no denies it.
   */
  rewritten_by?: string[];
}

/** Ours: the answer to list/clear_approval_escalations — tool kinds approved "always" and allow rules granted this session. */
export interface ApprovalEscalationsEvent extends EventMetadata {
  type: 'approval_escalations';
  /** "destructive" / "readonly": kinds that no longer ask (persisted beside the session file). */
  kinds: string[];
  /** allow_session (`pattern` "*") and allow_pattern grants, in this core only. */
  patterns: Array<{ tool: string; pattern: string }>;
}

export interface ApprovalChangedEvent extends EventMetadata {
  type: 'approval_changed';
  /** A mode, or "destructive:always" / "readonly:always" / "allow_pattern" after an escalation. */
  mode: ApprovalMode | (string & {});
  tool?: string;
  pattern?: string;
}

export interface AskRequestEvent extends EventMetadata {
  type: 'ask_request';
  /** `ask-<seq>`. */
  request_id: string;
  questions: AskQuestion[];
}

export interface SudoRequestEvent extends EventMetadata {
  type: 'sudo_request';
  request_id: string;
  command: string;
}

export interface IntercomMessageEvent extends EventMetadata {
  type: 'intercom_message';
  /** Answer with `intercom_reply{request_id: id}`; absent on an auto-resolved need_decision (nothing to answer). */
  id?: string;
  from: string;
  to: string;
  reason: string;
  message: string;
  auto_resolved?: boolean;
}

export interface OauthPromptEvent extends EventMetadata {
  type: 'oauth_prompt';
  url: string;
  /** A user code to enter at the URL (device flows); null when there is none. */
  code: string | null;
  message: string;
  /** False for flows that finish without a pasted code; treat absent as true. */
  needs_code?: boolean;
}

export interface BashExecutionEvent extends EventMetadata {
  type: 'bash_execution';
  command: string;
  ok: boolean;
  output: string;
  exclude_from_context: boolean;
}

export interface ApprovalExpiredEvent extends EventMetadata {
  type: 'approval_expired';
  request_id: string;
  tool_call_id: string;
}

// ── Providers ───────────────────────────────────────────────────────────────

export interface ModelsEvent extends EventMetadata {
  type: 'models';
  models: ModelInfo[];
}

export interface ModelsRefreshedEvent extends EventMetadata {
  type: 'models_refreshed';
  count: number;
  /** Provider name → model ids. */
  providers: Record<string, string[]>;
}

export interface ProviderPresetsEvent extends EventMetadata {
  type: 'provider_presets';
  presets: ProviderPreset[];
}

export interface ProviderChangedEvent extends EventMetadata {
  type: 'provider_changed';
  provider: string;
  kind: ProviderKind | string;
  base_url: string;
  has_key: boolean;
}

export interface AuthedEvent extends EventMetadata {
  type: 'authed';
  ok: boolean;
  /** Absent after a plugin OAuth login (upstream's `finalize_oauth`): it is about the active provider. */
  provider?: string;
}

export interface SearchKeySetEvent extends EventMetadata {
  type: 'search_key_set';
  provider: SearchProvider;
  has_key: boolean;
}

/** Provider plan/rate-limit usage; providers add their own extra fields. */
export interface UsageEvent extends EventMetadata {
  type: 'usage';
  provider: string;
  provider_kind: string;
  model: string;
  base_url: string;
  available?: boolean;
  plan?: string;
  message?: string;
  windows?: UsageWindow[];
  [field: string]: unknown;
}

export interface ConfigChangedEvent extends EventMetadata {
  type: 'config_changed';
  key: string;
  value: unknown;
}

export interface VisionConfigEvent extends EventMetadata {
  type: 'vision_config';
  enabled: boolean;
  vision_model: string | null;
  vision_models: string[];
  /** Ours; upstream's core sends none (its hand-off always switches). */
  mode?: 'switch' | 'describe';
  /** `{id, vision, provider, cost_rank}` each. */
  models: VisionModelEntry[];
}

export interface VisionModelEntry {
  id: string;
  vision: boolean;
  provider: string;
  /** upstream's heuristic on the id; lower is cheaper. */
  cost_rank: number;
}

export interface ProviderModelsPreviewEvent extends EventMetadata {
  type: 'provider_models_preview';
  models: ModelInfo[];
  base_url: string;
  count?: number;
  error?: string;
}

export interface UmansConcEvent extends EventMetadata {
  type: 'umans_conc';
  /** null: not Umans, or the poll failed. */
  used: number | null;
  /** null: unlimited plan. */
  limit: number | null;
  provider: string;
}

// ── Sessions ────────────────────────────────────────────────────────────────

export interface SessionsEvent extends EventMetadata {
  type: 'sessions';
  sessions: SessionSummary[];
  files: string[];
}

export interface HistoryEvent extends EventMetadata {
  type: 'history';
  messages: ChatMessage[];
  tokens_in: number;
  /** Ours: the session's ended subagent runs (from its `_run` records), so that a replayed `subagent` card lists its children. */
  subagents?: HistorySubagentRun[];
  /** Ours: the cost of each finished turn whose reply the history holds (`message_index`), as its `cost_update` said. */
  turn_costs?: HistoryTurnCost[];
}

/** A replayed reply's turn cost; `estimated_usd` null: a request of the turn had no known price. */
export interface HistoryTurnCost {
  message_index: number;
  estimated_usd: number | null;
  requests: number;
  tokens_in: number;
  tokens_out: number;
}

/** One ended subagent run of a replayed session, in start order (a parent before its children). */
export interface HistorySubagentRun {
  run_id: string;
  /** The `subagent` call it ran for: the main agent's, or (nested) a child's. */
  tool_call_id: string;
  parent_run_id?: string;
  mode: 'single' | 'parallel' | 'chain';
  /** '' for a group. */
  agent: string;
  /** '' in a file from before the task was recorded. */
  task: string;
  depth: number;
  /** `interrupted`: the core stopped while it ran. */
  state: 'completed' | 'failed' | 'cancelled' | 'interrupted';
  /** A single run's final text, capped as `subagent_done.summary`. */
  summary?: string;
  started_at: number;
  ended_at: number;
}

export interface StatsEvent extends EventMetadata {
  type: 'stats';
  /** Current context size, not cumulative. */
  tokens_in: number;
  /** Cumulative output tokens. */
  tokens_out: number;
  /** Cumulative prompt tokens. */
  total_in: number;
  tokens_total: number;
  cached_tokens: number;
  cache_hit_ratio: number;
  turns: number;
  compactions: number;
  messages: number;
  /** "" when the core keeps no session file. */
  session_file: string;
  /** Ours: cumulative output tokens, under the name that pairs with total_in. */
  total_out?: number;
  /** Ours: the tool calls of this session, all of them and the bash and file-edit ones. */
  tool_calls?: number;
  bash_calls?: number;
  edit_calls?: number;
  /** Ours: the session's cost, subagents included; null when any request's price is unknown. */
  estimated_usd?: number | null;
  /** Ours: the session's requests by provider and model. */
  by_model?: ModelUsageRow[];
}

export interface ModelUsageRow {
  model: string;
  provider: string;
  requests: number;
  tokens_in: number;
  tokens_out: number;
  cached_tokens: number;
  /** null: the price is unknown. */
  estimated_usd: number | null;
}

export interface ContextBreakdownEvent extends EventMetadata {
  type: 'context_breakdown';
  total_tokens: number;
  context_window: number;
  pct: number;
  by_role: Record<string, number>;
  top_consumers: ContextConsumer[];
  messages: number;
  system_tokens: number;
  /** Ours: the part of `system_tokens` the project rules files take (see `rules`). */
  rules_tokens?: number;
  digest_threshold_tokens?: number;
  compact_threshold_tokens?: number;
  hard_limit_tokens: number;
  response_reserve_tokens: number;
  safety_margin_tokens: number;
}

export interface SessionChangedEvent extends EventMetadata {
  type: 'session_changed';
  path: string;
  new: boolean;
}

export interface SessionChangeFailedEvent extends EventMetadata {
  type: 'session_change_failed';
  path: string;
  message: string;
}

export interface SessionRenamedEvent extends EventMetadata {
  type: 'session_renamed';
  path: string;
  title: string;
}

export interface SessionDeletedEvent extends EventMetadata {
  type: 'session_deleted';
  path: string;
}

export interface SessionPinnedEvent extends EventMetadata {
  type: 'session_pinned';
  path: string;
  pinned: boolean;
}

// ── Checkpoints, worktrees, audit ───────────────────────────────────────────

export interface CheckpointsEvent extends EventMetadata {
  type: 'checkpoints';
  checkpoints: CheckpointInfo[];
}

export interface CheckpointCreatedEvent extends EventMetadata {
  type: 'checkpoint_created';
  id: string;
  label: string;
  kind: CheckpointKind;
  auto: boolean;
  paths: string[];
  /** Ours: unix seconds, as in CheckpointInfo. */
  created_at?: number;
  // An automatic checkpoint is emitted in its run, so the metadata's `run_id` names that run.
  /** Ours: files left out for exceeding the size limit (see CheckpointInfo.skipped). */
  skipped?: string[];
  max_file_bytes?: number;
}

export interface CheckpointRestoredEvent extends EventMetadata {
  type: 'checkpoint_restored';
  id: string;
  kind: CheckpointKind;
  /** Ours: workspace-relative files written back to their checkpoint content. */
  restored?: string[];
  /** Ours: workspace-relative files removed because the checkpoint did not have them. */
  removed?: string[];
}

/** Ours (capability `checkpoint_files`): answer to `delete_checkpoint`. */
export interface CheckpointDeletedEvent extends EventMetadata {
  type: 'checkpoint_deleted';
  id: string;
}

/** Ours (capability `checkpoint_files`): answer to `checkpoint_changes`, sorted by path. */
export interface CheckpointChangesEvent extends EventMetadata {
  type: 'checkpoint_changes';
  id: string;
  files: CheckpointFileChange[];
}

/** Ours (capability `checkpoint_files`): answer to `checkpoint_file`; matched by (id, path). */
export interface CheckpointFileEvent extends EventMetadata {
  type: 'checkpoint_file';
  id: string;
  path: string;
  /** Whether the checkpoint has this file. */
  exists: boolean;
  /** UTF-8 text; absent when the file does not exist, is binary or is too large to send. */
  content?: string;
  binary?: true;
  too_large?: true;
}

export interface WorktreeReadyEvent extends EventMetadata {
  type: 'worktree_ready';
  run_id: string;
  path: string;
  branch: string;
}

export interface WorktreeSeededEvent extends EventMetadata {
  type: 'worktree_seeded';
  run_id: string;
  paths: string[];
}

export interface WorktreePromotedEvent extends EventMetadata {
  type: 'worktree_promoted';
  run_id: string;
  paths: string[];
}

export interface WorktreeCleanedEvent extends EventMetadata {
  type: 'worktree_cleaned';
  path: string;
}

export interface AuditEvent extends EventMetadata {
  type: 'audit';
  tool: string;
  decision: string;
  actor: string;
}

// ── Memory, plugins, skills, agents ─────────────────────────────────────────

/** Answers save_memory and forget_memory. */
export interface MemorySavedEvent extends EventMetadata {
  type: 'memory_saved';
  id: string;
  message: string;
  /** Ours: the note as saved, on the answer to save_memory (upstream sends id and message only). */
  text?: string;
}

export interface MemoryListEvent extends EventMetadata {
  type: 'memory_list';
  entries: MemoryEntry[];
  count: number;
}

export interface PluginTrustPromptEvent extends EventMetadata {
  type: 'plugin_trust_prompt';
  plugins: PluginTrustEntry[];
}

export interface PluginTrustAppliedEvent extends EventMetadata {
  type: 'plugin_trust_applied';
  trusted: string[];
  denied: string[];
  loaded: number;
}

export interface AgentsEvent extends EventMetadata {
  type: 'agents';
  agents: AgentInfo[];
}

export interface SkillsEvent extends EventMetadata {
  type: 'skills';
  skills: SkillInfo[];
}

/** One project rules file in effect (`rules.files`). */
export interface RulesFileInfo {
  /** Workspace-relative, forward slashes. */
  path: string;
  /** Which convention it comes from: `agents_md`, `claude_md`, `copilot_instructions`, `clinerules`, `cursorrules`. */
  source: string;
  /** The file's size on disk. */
  bytes: number;
  /** The estimated tokens it takes in the system prompt (its included text and any truncation marker). */
  tokens: number;
  /** Cut at the per-file cap, or left out because the total cap was reached; the prompt says so in a marker. */
  truncated: boolean;
  /** The folder it applies to, workspace-relative: "." for the whole workspace. */
  scope: string;
}

/** A rules file found but not read into the prompt (`rules.skipped`), and why. */
export interface RulesSkippedFile {
  path: string;
  source: string;
  /** `restricted`, `outside_workspace`, `duplicate`, `unreadable`, `binary`, `too_many_files`. */
  reason: string;
}

/**
 * Ours (upstream's core reads no rules file): the project rules files in the system prompt, in prompt order. Sent on
 * `init` and whenever the set or a file's figures change (checked before each turn and on `context`).
 */
export interface RulesEvent extends EventMetadata {
  type: 'rules';
  files: RulesFileInfo[];
  skipped: RulesSkippedFile[];
  /** The sources the settings turned off. */
  disabled: string[];
  /** The bounded walk stopped early (too deep or too many folders): a nested file beyond it is not read. */
  walk_limited: boolean;
}

export interface PluginsListEvent extends EventMetadata {
  type: 'plugins_list';
  plugins: PluginInfo[];
}

export interface PluginCommandsEvent extends EventMetadata {
  type: 'plugin_commands';
  commands: Record<string, unknown>[];
}

export interface PluginInstalledEvent extends EventMetadata {
  type: 'plugin_installed';
  name: string;
  version: string;
  description: string;
  path: string;
  scope: InstallScope;
  hooks: string[];
}

export interface PluginRemovedEvent extends EventMetadata {
  type: 'plugin_removed';
  name: string;
}

export interface PluginEnabledEvent extends EventMetadata {
  type: 'plugin_enabled';
  name: string;
}

export interface PluginDisabledEvent extends EventMetadata {
  type: 'plugin_disabled';
  name: string;
}

export interface PluginErrorEvent extends EventMetadata {
  type: 'plugin_error';
  name: string;
  message: string;
}

export interface PluginStatusEvent extends EventMetadata {
  type: 'plugin_status';
  plugin: string;
  text: string;
}

export interface SkillMarketplaceStateEvent extends EventMetadata {
  type: 'skill_marketplace_state';
  disclaimer_accepted: boolean;
  installed: InstalledSkillInfo[];
}

export interface SkillMarketplaceResultsEvent extends EventMetadata {
  type: 'skill_marketplace_results';
  query: string;
  skills: MarketplaceSkillInfo[];
}

export interface SkillMarketplaceChangedEvent extends EventMetadata {
  type: 'skill_marketplace_changed';
  /** "installed", "updated", "unchanged" or "removed". */
  action: string;
  name: string;
  scope: SkillScopeName;
}

export interface SkillMarketplaceErrorEvent extends EventMetadata {
  type: 'skill_marketplace_error';
  message: string;
}

// ── Subagents (their `run_id` is the child run's) ───────────────────────────

export interface SubagentStartEvent extends EventMetadata {
  type: 'subagent_start';
  run_id: string;
  mode: string;
  /** Single mode. */
  agent?: string;
  /** Parallel and chain modes. */
  agents?: string[];
  task: string;
  depth: number;
  started_at: number;
  parent_run_id?: string;
  /** Ours: the `subagent` tool call that started the run (every run of a batch or chain carries its call's id). */
  tool_call_id?: string;
  /** Ours, single runs: the model the child starts on (a failing model falls back, announced by an `info`). */
  model?: string;
}

export interface SubagentProgressEvent extends EventMetadata {
  type: 'subagent_progress';
  run_id: string;
  agent: string;
  phase: string;
  tool?: string | null;
  tool_count: number;
  ok?: boolean;
  elapsed_ms: number;
  tokens_in: number;
  tokens_out: number;
}

export interface SubagentMessageEvent extends EventMetadata {
  type: 'subagent_message';
  run_id: string;
  role: string;
  content: string;
}

/** Ours: a chunk of a child's streamed reply (upstream streams children quietly and sends only `subagent_message`). */
export interface SubagentDeltaEvent extends EventMetadata {
  type: 'subagent_delta';
  run_id: string;
  text: string;
}

export interface SubagentToolCallEvent extends EventMetadata {
  type: 'subagent_tool_call';
  run_id: string;
  call_id: string;
  name: string;
  /** An object here, unlike `tool_call.args`. */
  args: Record<string, unknown>;
  tool_count: number;
}

export interface SubagentToolResultEvent extends EventMetadata {
  type: 'subagent_tool_result';
  run_id: string;
  call_id: string;
  name: string;
  ok: boolean;
  result: string;
}

export interface SubagentDoneEvent extends EventMetadata {
  type: 'subagent_done';
  run_id: string;
  state: string;
  duration_ms: number;
  ended_at: number;
  summary?: string;
  parent_run_id?: string;
  /** Ours: this run's own requests priced (not its children's, which have their own); null when a price is unknown. */
  estimated_usd?: number | null;
}

// ── Goal mode ───────────────────────────────────────────────────────────────

export interface GoalStateEvent extends EventMetadata {
  type: 'goal_state';
  id: string;
  version: number;
  goal: string;
  phase: string;
  prompts: unknown;
  auto_deploy: boolean;
  concurrency: number;
  max_tasks: number;
  allowed_models: string[];
  allowed_providers: string[];
  active_run_ids: string[];
  parent_model: string;
  error: string | null;
  ceo_mode?: boolean;
  mode?: string;
  iteration?: number;
  max_iterations?: number;
  plan_revision?: number;
  max_plan_revisions?: number;
  review_verdict?: unknown;
  verify_verdict?: unknown;
  remaining_gaps?: string[];
  self_review_feedback?: string | null;
  certified?: boolean;
  role_models?: unknown;
  model_concurrency?: unknown;
  [field: string]: unknown;
}

export interface GoalPlanEvent extends EventMetadata {
  type: 'goal_plan';
  id: string;
  version: number;
  summary: string;
  steps: GoalPlanStep[];
  risks: string[];
  validation: string[];
}

export interface GoalPhaseEvent extends EventMetadata {
  type: 'goal_phase';
  from: string;
  to: string;
  message?: string;
  wave?: number;
  step_count?: number;
  done_count?: number;
}

export interface GoalIterationEvent extends EventMetadata {
  type: 'goal_iteration';
  id?: string;
  iteration: number;
  max_iterations: number;
  plan_revision?: number;
  max_plan_revisions?: number;
}

export interface GoalReviewVerdictEvent extends EventMetadata {
  type: 'goal_review_verdict';
  id?: string;
  ok: boolean;
  summary: string;
  iteration?: number;
  plan_revision?: number;
  evidence_paths?: string[];
}

export interface GoalVerifyVerdictEvent extends EventMetadata {
  type: 'goal_verify_verdict';
  id?: string;
  ok: boolean;
  summary: string;
  iteration?: number;
  remaining_gaps?: string[];
  evidence_paths?: string[];
}

export interface GoalCertifiedEvent extends EventMetadata {
  type: 'goal_certified';
  id?: string;
  summary: string;
  iteration?: number;
  certified?: boolean;
}

export interface GoalStepVerdictEvent extends EventMetadata {
  type: 'goal_step_verdict';
  ok: boolean;
  output: string;
  provider_ok: boolean;
}

export interface GoalStepCompleteEvent extends EventMetadata {
  type: 'goal_step_complete';
  step_id: string;
  title: string;
  agent: string;
  ok: boolean;
  status: string;
  summary: string;
  /** The step's child run (absent for a skipped step). */
  run_id?: string;
}

export interface GoalCompletionSummaryEvent extends EventMetadata {
  type: 'goal_completion_summary';
  text: string;
}

export interface WorkStateEvent extends EventMetadata {
  type: 'work_state';
  version: number;
  goal: string;
  done: unknown[];
  in_progress: unknown[];
  next: unknown[];
  recent_files: string[];
  last_activity: unknown;
}

// ── Sandbox ─────────────────────────────────────────────────────────────────

export interface SandboxStatusEvent extends EventMetadata {
  type: 'sandbox_status';
  mode: string;
  report: SandboxReport;
  /** Set when answering reset_sandbox. */
  reset?: boolean;
}

export interface SandboxPrepareProgressEvent extends EventMetadata {
  type: 'sandbox_prepare_progress';
  phase: string;
}

export interface SandboxReadyEvent extends EventMetadata {
  type: 'sandbox_ready';
  ready: boolean;
  report: SandboxReport;
}

export interface SandboxErrorEvent extends EventMetadata {
  type: 'sandbox_error';
  error: string;
}

// ── The catalog: one entry per event ────────────────────────────────────────

declare const carried: unique symbol;
/** A catalog value: `true` at run time, the event's interface at the type level only. */
type Carries<E> = true & { readonly [carried]?: E };
const event = <E extends { type: string }>(): Carries<E> => true as Carries<E>;
/** Each key must be the `type` of the interface it carries: a wrong pairing fails typecheck. */
const catalog = <T extends { [K in keyof T]: Carries<{ type: K }> }>(table: T): Readonly<T> => Object.freeze(table);

/**
 * Every event, type → interface. Adding an event is its interface plus one entry here: the union (`CoreEvent`), the
 * type names (`EventType`), the run-time list (`EVENT_TYPES`) and `isEventType` derive from it.
 */
const EVENT_CATALOG = catalog({
  ready: event<ReadyEvent>(),
  protocol_hello: event<ProtocolHelloEvent>(),
  session_recovered: event<SessionRecoveredEvent>(),
  runtime_status: event<RuntimeStatusEvent>(),
  run_cancelled: event<RunCancelledEvent>(),
  reset: event<ResetEvent>(),
  error: event<ErrorEvent>(),
  info: event<InfoEvent>(),
  delta: event<DeltaEvent>(),
  thinking: event<ThinkingEvent>(),
  tool_call: event<ToolCallEvent>(),
  tool_result: event<ToolResultEvent>(),
  done: event<DoneEvent>(),
  aborted: event<AbortedEvent>(),
  steer: event<SteerEvent>(),
  tool_call_start: event<ToolCallStartEvent>(),
  tool_call_name: event<ToolCallNameEvent>(),
  tool_call_args: event<ToolCallArgsEvent>(),
  file_change: event<FileChangeEvent>(),
  metrics: event<MetricsEvent>(),
  cost_update: event<CostUpdateEvent>(),
  http_retry: event<HttpRetryEvent>(),
  stuck_nudge: event<StuckNudgeEvent>(),
  summary_required: event<SummaryRequiredEvent>(),
  reflecting: event<ReflectingEvent>(),
  digested: event<DigestedEvent>(),
  advisor_note: event<AdvisorNoteEvent>(),
  advisor_status: event<AdvisorStatusEvent>(),
  compacting: event<CompactingEvent>(),
  compacted: event<CompactedEvent>(),
  approval_request: event<ApprovalRequestEvent>(),
  approval_changed: event<ApprovalChangedEvent>(),
  approval_escalations: event<ApprovalEscalationsEvent>(),
  ask_request: event<AskRequestEvent>(),
  sudo_request: event<SudoRequestEvent>(),
  intercom_message: event<IntercomMessageEvent>(),
  oauth_prompt: event<OauthPromptEvent>(),
  bash_execution: event<BashExecutionEvent>(),
  approval_expired: event<ApprovalExpiredEvent>(),
  models: event<ModelsEvent>(),
  models_refreshed: event<ModelsRefreshedEvent>(),
  provider_presets: event<ProviderPresetsEvent>(),
  provider_changed: event<ProviderChangedEvent>(),
  authed: event<AuthedEvent>(),
  search_key_set: event<SearchKeySetEvent>(),
  usage: event<UsageEvent>(),
  config_changed: event<ConfigChangedEvent>(),
  vision_config: event<VisionConfigEvent>(),
  provider_models_preview: event<ProviderModelsPreviewEvent>(),
  umans_conc: event<UmansConcEvent>(),
  sessions: event<SessionsEvent>(),
  history: event<HistoryEvent>(),
  stats: event<StatsEvent>(),
  context_breakdown: event<ContextBreakdownEvent>(),
  session_changed: event<SessionChangedEvent>(),
  session_change_failed: event<SessionChangeFailedEvent>(),
  session_renamed: event<SessionRenamedEvent>(),
  session_deleted: event<SessionDeletedEvent>(),
  session_pinned: event<SessionPinnedEvent>(),
  checkpoints: event<CheckpointsEvent>(),
  checkpoint_created: event<CheckpointCreatedEvent>(),
  checkpoint_restored: event<CheckpointRestoredEvent>(),
  checkpoint_deleted: event<CheckpointDeletedEvent>(),
  checkpoint_changes: event<CheckpointChangesEvent>(),
  checkpoint_file: event<CheckpointFileEvent>(),
  worktree_ready: event<WorktreeReadyEvent>(),
  worktree_seeded: event<WorktreeSeededEvent>(),
  worktree_promoted: event<WorktreePromotedEvent>(),
  worktree_cleaned: event<WorktreeCleanedEvent>(),
  audit: event<AuditEvent>(),
  memory_saved: event<MemorySavedEvent>(),
  memory_list: event<MemoryListEvent>(),
  plugin_trust_prompt: event<PluginTrustPromptEvent>(),
  plugin_trust_applied: event<PluginTrustAppliedEvent>(),
  agents: event<AgentsEvent>(),
  skills: event<SkillsEvent>(),
  rules: event<RulesEvent>(),
  plugins_list: event<PluginsListEvent>(),
  plugin_commands: event<PluginCommandsEvent>(),
  plugin_installed: event<PluginInstalledEvent>(),
  plugin_removed: event<PluginRemovedEvent>(),
  plugin_enabled: event<PluginEnabledEvent>(),
  plugin_disabled: event<PluginDisabledEvent>(),
  plugin_error: event<PluginErrorEvent>(),
  plugin_status: event<PluginStatusEvent>(),
  skill_marketplace_state: event<SkillMarketplaceStateEvent>(),
  skill_marketplace_results: event<SkillMarketplaceResultsEvent>(),
  skill_marketplace_changed: event<SkillMarketplaceChangedEvent>(),
  skill_marketplace_error: event<SkillMarketplaceErrorEvent>(),
  subagent_start: event<SubagentStartEvent>(),
  subagent_progress: event<SubagentProgressEvent>(),
  subagent_message: event<SubagentMessageEvent>(),
  subagent_tool_call: event<SubagentToolCallEvent>(),
  subagent_tool_result: event<SubagentToolResultEvent>(),
  subagent_done: event<SubagentDoneEvent>(),
  subagent_delta: event<SubagentDeltaEvent>(),
  goal_state: event<GoalStateEvent>(),
  goal_plan: event<GoalPlanEvent>(),
  goal_phase: event<GoalPhaseEvent>(),
  goal_iteration: event<GoalIterationEvent>(),
  goal_review_verdict: event<GoalReviewVerdictEvent>(),
  goal_verify_verdict: event<GoalVerifyVerdictEvent>(),
  goal_certified: event<GoalCertifiedEvent>(),
  goal_step_verdict: event<GoalStepVerdictEvent>(),
  goal_step_complete: event<GoalStepCompleteEvent>(),
  goal_completion_summary: event<GoalCompletionSummaryEvent>(),
  work_state: event<WorkStateEvent>(),
  sandbox_status: event<SandboxStatusEvent>(),
  sandbox_prepare_progress: event<SandboxPrepareProgressEvent>(),
  sandbox_ready: event<SandboxReadyEvent>(),
  sandbox_error: event<SandboxErrorEvent>(),
});

/** Type → interface (`EventMap['tool_result']` is `ToolResultEvent`). */
export type EventMap = { [K in keyof typeof EVENT_CATALOG]: (typeof EVENT_CATALOG)[K] extends Carries<infer E> ? E : never };

export type CoreEvent = EventMap[keyof EventMap];

export type EventType = keyof EventMap;

export type EventOf<T extends EventType> = EventMap[T];

/**
 * The events as the core's code writes them, before the event sink stamps the metadata fields `S`: distributed over the
 * union, so the `type` picks the interface and a misspelt field is an excess property. The mapped type with `as` keeps
 * both the named fields and an index signature (`Omit` would collapse them into the index signature).
 */
export type Unstamped<S extends keyof EventMetadata = keyof EventMetadata, E = CoreEvent> = E extends unknown
  ? { [K in keyof E as K extends S ? never : K]: E[K] }
  : never;

/** What a client may rely on from an untrusted or older core: the `type`, every other field optional. */
export type LooseEvent<T extends EventType = EventType> = T extends EventType ? { type: T } & Partial<Omit<EventOf<T>, 'type'>> : never;

export const EVENT_TYPES: readonly EventType[] = Object.freeze(Object.keys(EVENT_CATALOG) as EventType[]);

/**
 * Our own event types, each with the capability a client announces in `init.client.capabilities` to receive it: the
 * name the core announces in `protocol_hello.capabilities` for the feature that emits it (as upstream's `run_ids` is
 * both the core's and the client's). A client that did not announce it — upstream's SDK and web UI announce only
 * `run_ids`, `session_ids`, `event_sequence` — never sees the event: its schema has no such type.
 */
export const EXTENSION_EVENT_CAPABILITIES = Object.freeze({
  checkpoint_deleted: CAPABILITY_CHECKPOINT_FILES,
  checkpoint_changes: CAPABILITY_CHECKPOINT_FILES,
  checkpoint_file: CAPABILITY_CHECKPOINT_FILES,
  subagent_delta: CAPABILITY_SUBAGENT_STREAM,
  rules: CAPABILITY_PROJECT_RULES,
  approval_escalations: CAPABILITY_APPROVAL_ESCALATIONS,
} as const satisfies Partial<Record<EventType, string>>);

export type ExtensionEventType = keyof typeof EXTENSION_EVENT_CAPABILITIES;

/** Event types that are ours, not upstream's (the rest of EVENT_TYPES is upstream's catalog of 105). */
export const EXTENSION_EVENT_TYPES: readonly EventType[] = Object.freeze(Object.keys(EXTENSION_EVENT_CAPABILITIES) as ExtensionEventType[]);

/** Whether a client that announced `clientCapabilities` in `init` may be sent an event of `type`. */
export function clientAcceptsEvent(type: string, clientCapabilities: ReadonlySet<string>): boolean {
  if (!Object.hasOwn(EXTENSION_EVENT_CAPABILITIES, type)) return true;
  return clientCapabilities.has(EXTENSION_EVENT_CAPABILITIES[type as ExtensionEventType]);
}

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_CATALOG, type);
}
