// Protocol and core versions, and the capability names exchanged in the handshake.

export const PROTOCOL_VERSION = 2;

/** Reported as `protocol_hello.version`; upstream's core is at 0.2.0. */
export const CORE_VERSION = '0.2.0';

/** Oldest client version the core still serves (`protocol_hello.min_client`). */
export const MIN_CLIENT = '0.2.0';

/** What upstream's core advertises in `protocol_hello.capabilities` (`core/src/protocol/version.rs`). */
export const UPSTREAM_CAPABILITIES = [
  'protocol_v2',
  'run_ids',
  'session_ids',
  'event_sequence',
  'stale_event_rejection',
  'worktree',
  'checkpoint',
  'file_change',
  'audit',
  'routing',
  'allow_pattern',
  'cost_update',
] as const;

export type UpstreamCapability = (typeof UPSTREAM_CAPABILITIES)[number];

/** Our extension: `approve` may carry `edited_content`, the user's edited full file content. */
export const CAPABILITY_EDITED_CONTENT = 'approval_edited_content';

/**
 * Our extension: checkpoint file operations — `restore_checkpoint.paths`, `delete_checkpoint`, `checkpoint_changes`,
 * `checkpoint_file`, and `created_at`/`run_id`/`skipped` on checkpoint infos.
 */
export const CAPABILITY_CHECKPOINT_FILES = 'checkpoint_files';

/** Our extension: the core runs the `subagent` tool (single, parallel, chain) and emits the `subagent_*` events. */
export const CAPABILITY_SUBAGENTS = 'subagents';

/** Our extension: a child's reply streams as `subagent_delta` events before its `subagent_message`. */
export const CAPABILITY_SUBAGENT_STREAM = 'subagent_stream';

/** Our extension: children ask the orchestrator through `contact_supervisor`, answered with `intercom_reply`. */
export const CAPABILITY_INTERCOM = 'intercom';

/** Upstream's name: `subagent{worktree:true}` runs a child in its own git worktree. */
export const CAPABILITY_WORKTREE = 'worktree';

/** Our extension: a worktree child's changes come back as inner calls (`<call id>.<n>`) reviewed like direct edits. */
export const CAPABILITY_WORKTREE_REVIEW = 'worktree_review';

/**
 * Our extension: `fetch` and `web_search` are built in, and `set_search_key` keeps a key in the core's memory only unless
 * it says `persist: true` (upstream always writes it to config.json). A client that must keep keys off disk sends one
 * only to a core that announces this.
 */
export const CAPABILITY_RUNTIME_SEARCH_KEYS = 'runtime_search_keys';

/** Our extension: the core reads the project's rules files (AGENTS.md and others) into the system prompt and emits `rules`. */
export const CAPABILITY_PROJECT_RULES = 'project_rules';

/**
 * Our extension (upstream announces none): the core loads plugins — global and trusted workspace ones — with their
 * tools, slash commands and tool hooks, asks `plugin_trust_prompt`, and answers the plugin commands.
 */
export const CAPABILITY_PLUGINS = 'plugins';

/**
 * Our extension: goal mode — start_goal (classic and ceo_mode), approve_goal_plan, revise_goal, cancel_goal, goal_status
 * and the goal_* / work_state events. Upstream's core has goal mode without announcing it; ours announces it once it works.
 */
export const CAPABILITY_GOAL = 'goal';

/**
 * Our extension (upstream announces none): plugin OAuth providers — login_oauth → oauth_prompt → oauth_code, request-time
 * tokens from the plugin's token action, and logout clearing them (research A §8).
 */
export const CAPABILITY_OAUTH = 'oauth';

/** Ours: list_approval_escalations / clear_approval_escalations answered by approval_escalations. */
export const CAPABILITY_APPROVAL_ESCALATIONS = 'approval_escalations';

/** Error codes of the checkpoint commands (`error.code`). */
export const CHECKPOINT_ERROR_CODES = {
  notFound: 'checkpoint_not_found',
  invalidPath: 'invalid_path',
  /** An automatic checkpoint took longer than its time budget; the turn went on without it. */
  timeout: 'checkpoint_timeout',
} as const;

/** What upstream's clients (its SDK, web UI and TUI) send in `init.client.capabilities`. */
export const UPSTREAM_CLIENT_CAPABILITIES = ['run_ids', 'session_ids', 'event_sequence'] as const;

/**
 * What our client sends in `init.client.capabilities`: upstream's, and the capabilities whose events of ours it reads
 * (EXTENSION_EVENT_CAPABILITIES) — the core sends our own event types only to a client that announced them.
 */
export const CLIENT_CAPABILITIES = [
  ...UPSTREAM_CLIENT_CAPABILITIES,
  CAPABILITY_CHECKPOINT_FILES,
  CAPABILITY_SUBAGENT_STREAM,
  CAPABILITY_PROJECT_RULES,
  CAPABILITY_APPROVAL_ESCALATIONS,
] as const;
