// Structured types shared by commands and events of the Catalyst Code wire protocol v2.
// Field names are the wire's own (upstream mixes snake_case and camelCase); do not rename them.
// Shapes follow upstream's core (research §1.3/§1.4). Where upstream does not pin a shape down,
// the type says `unknown` or `Record<string, unknown>` rather than guessing.

import type { ModelPrice } from './pricing';

export interface ModelInfo {
  id: string;
  name?: string;
  reasoning?: boolean;
  context_window?: number;
  max_tokens?: number;
  /** Reasoning effort levels the model advertises, e.g. ["low","medium","high"]. */
  thinking_levels?: string[];
  vision?: boolean;
  /** Provider that owns the model, for per-turn routing; empty for legacy single-provider models. */
  provider?: string;
}

/** Per-model capability override, as in config.json `models_override`. */
export interface ModelOverride {
  id: string;
  context_window?: number;
  max_tokens?: number;
  reasoning?: boolean;
  thinking_levels?: string[];
  /** Ours: the model's price, for endpoints models.dev does not price (a custom or local one). */
  cost?: ModelPrice;
}

/** `add_custom_provider.models_override`: keyed by model id, or a list of overrides. */
export type ModelsOverrideSpec = Record<string, Omit<ModelOverride, 'id'>> | ModelOverride[];

/** Extra HTTP headers: an object, or a list of [name, value] pairs. */
export type HeadersSpec = Record<string, string> | [string, string][];

export interface ClientInfo {
  name?: string;
  version?: string;
  capabilities?: string[];
}

/** When the core asks before a tool runs (`--approval`, `set_approval`). */
export const APPROVAL_MODES = ['never', 'destructive', 'always'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** `approve.decision`. */
export const APPROVAL_DECISIONS = ['yes', 'no', 'always', 'allow_session', 'allow_pattern'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** `approval_request.risk` / `requested_permission`. */
export type ToolRisk = 'readonly' | 'destructive';

/** `tool_result.status`. */
export const TOOL_STATUSES = ['success', 'denied', 'cancelled', 'timed_out', 'failed', 'stale', 'partially_completed'] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];

export type CancellationReason =
  'abort' | 'reset' | 'clear' | 'new_session' | 'load_session' | 'steering' | 'goal_cancelled' | 'fatal_error' | 'shutdown';

/** Wire protocol of a provider ("claude" is accepted as an alias of "anthropic" in config). */
export type ProviderKind = 'openai' | 'anthropic';

/** Open string: upstream passes any effort through; "medium" is the default. */
export type ReasoningEffort = string;

export type SearchProvider = 'exa' | 'tavily';

/** Where a plugin, memory or marketplace skill is installed. */
export type InstallScope = 'global' | 'workspace';

export type PluginTrustDecision = 'trust' | 'deny';

// ── Conversation (session files and `history`) ──────────────────────────────

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: {
    name: string;
    /** The model's raw JSON arguments, as a string. */
    arguments: string;
  };
}

/** An OpenAI-chat shaped message, as stored in session files and sent in `history`. */
export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[] | null;
  reasoning_content?: string | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  name?: string;
}

// ── Sessions and runs ───────────────────────────────────────────────────────

/** One entry of the `sessions` event. */
export interface SessionSummary {
  name: string;
  path: string;
  title: string;
  messages: number;
  /** Unix seconds. */
  mtime: number;
  current: boolean;
  pinned: boolean;
}

/** A run that was started but never reached a terminal state (`session_recovered`). */
export interface InterruptedActivity {
  run_id: string;
  kind: string;
  parent_run_id: string | null;
  tool_call_id: string | null;
}

/** `runtime_status.last_cancellation`. */
export interface CancelledRun {
  session_id: string;
  run_id: string;
  reason: CancellationReason;
}

/** A cancellable resource registered with the runtime (`runtime_status.resources`). */
export interface RuntimeResource {
  /** Unique in the core process (not a run id). */
  id: number;
  /**
   * Upstream's: task, subprocess, approval, ask, sudo, subagent, goal, browser, intercom. The foreground run is a `task`
   * (FOREGROUND_RUN_RESOURCE); ours adds CHECKPOINT_COMPACTION_RESOURCE_KIND.
   */
  kind: string;
  /** What the resource is; the foreground run's is one of FOREGROUND_RUN_RESOURCE.labels (clients match it). */
  label: string;
  session_id: string;
  run_id?: string | null;
  cancelled: boolean;
}

/**
 * The foreground run as `runtime_status.resources` lists it: kind `task`, labelled by what runs. A model turn is
 * upstream's `foreground_agent_turn`; our `compact` and `user_bash` commands also run as foreground runs (upstream lists
 * no resource for them).
 */
export const FOREGROUND_RUN_RESOURCE = {
  kind: 'task',
  labels: { turn: 'foreground_agent_turn', compact: 'foreground_compact', user_bash: 'foreground_user_bash' },
} as const;

/**
 * Ours: the `kind` of the resource our core lists while its checkpoint store is compacted in the background (a `git gc`
 * of the shadow store; `run_id` null, `cancelled` once the core has told it to stop). Absent from the list = none runs.
 */
export const CHECKPOINT_COMPACTION_RESOURCE_KIND = 'checkpoint_compaction';

/** Upstream's `label` of the goal's speculative scout (kind `subagent`) while it runs: at most one per goal. */
export const GOAL_SPECULATIVE_SCOUT_RESOURCE_LABEL = 'goal_speculative_scout';

// ── Checkpoints ─────────────────────────────────────────────────────────────

export type CheckpointKind = 'git' | 'files';

/** One entry of the `checkpoints` event. */
export interface CheckpointInfo {
  /** `cp-<unix_secs>-<16hex>`. */
  id: string;
  label: string;
  /** Unix seconds. */
  created_at: number;
  kind: CheckpointKind;
  /** git backend: HEAD when the checkpoint was taken. */
  head_sha?: string | null;
  /** git backend: the `git stash create` commit; absent on a clean tree. */
  stash_sha?: string | null;
  paths: string[];
  /** files backend: the snapshot directory. */
  dir?: string | null;
  auto: boolean;
  /** Ours: the run whose automatic checkpoint this is (null for a manual one). */
  run_id?: string | null;
  /**
   * Ours: workspace-relative files left out of the checkpoint because they exceeded the size limit
   * (`max_file_bytes`); a restore never touches them. Absent when nothing was skipped.
   */
  skipped?: string[];
  /** Ours: the size limit in bytes the checkpoint was taken with. */
  max_file_bytes?: number;
}

/** Ours (capability `checkpoint_files`): how the working tree differs from a checkpoint, per file. */
export type CheckpointChangeStatus = 'modified' | 'added' | 'deleted';

/**
 * One entry of `checkpoint_changes.files`. 'added' = exists now but not in the checkpoint (a restore removes it);
 * 'deleted' = in the checkpoint, gone now (a restore brings it back); 'modified' = content or mode differ.
 */
export interface CheckpointFileChange {
  /** Workspace-relative, '/'-separated. */
  path: string;
  status: CheckpointChangeStatus;
}

// ── Providers ───────────────────────────────────────────────────────────────

/** One entry of the `provider_presets` event. */
export interface ProviderPreset {
  id: string;
  label: string;
  kind: ProviderKind | string;
  base_url: string;
  /** null for a plugin OAuth provider (it has no key variable). */
  envVar: string | null;
  altEnvs?: string[];
  description: string;
  hasKey: boolean;
  configured: boolean;
  loggedIn: boolean;
  supportsOauth?: boolean;
}

/** One rate-limit window of a `usage` event. */
export interface UsageWindow {
  id: string;
  label: string;
  used?: number;
  limit?: number;
  unit: string;
  /** Unix seconds. */
  resets_at?: number;
  detail?: string;
}

// ── Interaction ─────────────────────────────────────────────────────────────

/** One question of an `ask_request` (the `ask` tool). */
export interface AskQuestion {
  id: string;
  prompt: string;
  type: 'select' | 'text';
  /** Required for `select`. */
  options?: string[];
  allowCustom?: boolean;
  placeholder?: string;
  required?: boolean;
}

/** `ask_reply.answers`: question id → answer, or null when the user skipped. */
export type AskAnswers = Record<string, string> | null;

// ── Context accounting ──────────────────────────────────────────────────────

/** One of the biggest messages in `context_breakdown.top_consumers`. */
export interface ContextConsumer {
  index: number;
  role: ChatRole | string;
  tokens: number;
  preview: string;
}

// ── Memory, plugins, skills, agents ─────────────────────────────────────────

/** One entry of `memory_list.entries`. */
export interface MemoryEntry {
  id: string;
  name?: string;
  description?: string;
  content?: string;
  scope?: InstallScope | string;
  type?: string;
  text?: string;
  tags?: string[];
}

/** One entry of `plugins_list.plugins`. */
export interface PluginInfo {
  name: string;
  enabled: boolean;
  version?: string;
  path?: string;
  description?: string;
  /** Hook points the plugin registers, e.g. "pre_write". */
  hooks?: string[];
  /** Names of the tools and slash commands it adds, and of the tools it removes from the main agent. */
  tools?: string[];
  commands?: string[];
  disable_tools?: string[];
  has_oauth?: boolean;
  has_memory_provider?: boolean;
  has_system_prompt?: boolean;
  scope?: InstallScope;
  error?: string;
}

/** One entry of `plugin_commands.commands`. */
export interface PluginCommandInfo {
  name: string;
  description: string;
  plugin: string;
  mode: 'script' | 'agent_turn';
}

/** One entry of `plugin_trust_prompt.plugins`; `decision` "" means undecided. */
export interface PluginTrustEntry {
  name: string;
  version: string;
  description: string;
  path: string;
  decision: '' | PluginTrustDecision;
}

/** A marketplace skill's scope as upstream's core names it in its events. */
export type SkillScopeName = 'project' | 'global';

/** What the marketplace commands accept: upstream also takes `workspace` for project and `user` for global. */
export type SkillInstallScope = SkillScopeName | 'workspace' | 'user';

/** One entry of `skill_marketplace_results.skills`: a skill of the index, `source` its GitHub owner/repo. */
export interface MarketplaceSkillInfo {
  id: string;
  skillId: string;
  name: string;
  installs: number;
  source: string;
}

/** One entry of `skill_marketplace_state.installed`: a lock-managed skill; `location` is its folder. */
export interface InstalledSkillInfo {
  name: string;
  source: string;
  scope: SkillScopeName;
  hash: string;
  location: string;
}

/** One entry of `skills.skills`. */
export interface SkillInfo {
  name: string;
  description: string;
  location: string;
  /** The parsed SKILL.md body, when the core sends it. */
  content?: string;
}

/** One entry of `agents.agents` (builtin, user or project subagent). */
export interface AgentInfo {
  name: string;
  label?: string;
  description?: string;
  source?: string;
}

// ── Goal mode ───────────────────────────────────────────────────────────────

/** One step of a goal plan (`goal_plan.steps`, the `goal_write_plan` tool). */
export interface GoalPlanStep {
  id?: string;
  agent: string;
  title?: string;
  task: string;
  model?: string;
  depends_on?: string[];
  parallel_group?: string | number;
}

// ── Sandbox ─────────────────────────────────────────────────────────────────

export interface SandboxCheck {
  /** Stable machine-readable code, e.g. "kvm_device_missing". */
  code: string;
  title: string;
  status: 'pass' | 'fail' | 'warn' | 'info';
  detail: string;
}

export interface SandboxSetupAction {
  title: string;
  explanation: string;
  command: string | null;
  requires_admin: boolean;
  requires_reboot: boolean;
}

/** Preflight report of `sandbox_status` / `sandbox_ready`. */
export interface SandboxReport {
  requested: boolean;
  supported: boolean;
  ready: boolean;
  platform: string;
  architecture: string;
  checks: SandboxCheck[];
  actions: SandboxSetupAction[];
}
