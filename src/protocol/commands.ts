// Commands (client → core on stdin): all 73 of upstream's `core/src/protocol/commands.rs`,
// discriminated by `type`, in the order of research §1.3. `?` marks a field upstream defaults.
// Ours on top (EXTENSION_COMMAND_CAPABILITIES): delete_checkpoint, checkpoint_changes, checkpoint_file (capability
// `checkpoint_files`), list_approval_escalations, clear_approval_escalations (`approval_escalations`).
// Fields of ours on upstream's commands: approve.edited_content, restore_checkpoint.paths, add_custom_provider.key_follows.
// A core must tolerate unknown fields; these types do not validate anything at runtime.
import { CAPABILITY_APPROVAL_ESCALATIONS, CAPABILITY_CHECKPOINT_FILES } from './version';
import type {
  ApprovalDecision,
  ApprovalMode,
  AskAnswers,
  ClientInfo,
  HeadersSpec,
  InstallScope,
  ModelsOverrideSpec,
  PluginTrustDecision,
  ProviderKind,
  ReasoningEffort,
  SearchProvider,
  SkillInstallScope,
} from './common';

// ── Handshake and turns ─────────────────────────────────────────────────────

export interface InitCommand {
  type: 'init';
  /** Absent for legacy clients. */
  protocol_version?: number;
  client?: ClientInfo;
}

export interface SendCommand {
  type: 'send';
  prompt: string;
  /** A model id from `ready.models` or a later `models` event. */
  model: string;
  provider?: string;
  /** Defaults to "medium". */
  reasoning_effort?: ReasoningEffort;
  /** data: URLs or absolute file paths. */
  images?: string[];
}

/** Interrupts the running turn and redirects it; behaves like `send` when idle. No images. */
export interface SteerCommand {
  type: 'steer';
  prompt: string;
  model: string;
  provider?: string;
  reasoning_effort?: ReasoningEffort;
}

export interface AbortCommand {
  type: 'abort';
}

export interface ClearQueueCommand {
  type: 'clear_queue';
}

/** Clears the conversation and wipes the session file. */
export interface ResetCommand {
  type: 'reset';
}

/** Clears the conversation but keeps the session file. */
export interface ClearCommand {
  type: 'clear';
}

export interface UndoCommand {
  type: 'undo';
}

export interface CompactCommand {
  type: 'compact';
  instructions?: string;
}

export interface UserBashCommand {
  type: 'user_bash';
  command: string;
  /** true for `!!cmd`: show the output but keep it out of the model's context. */
  exclude_from_context?: boolean;
}

export interface ApplySkillCommand {
  type: 'apply_skill';
  name: string;
  task?: string;
  model: string;
  reasoning_effort?: ReasoningEffort;
}

// ── Diagnostics ─────────────────────────────────────────────────────────────

export interface StatsCommand {
  type: 'stats';
}

export interface ContextCommand {
  type: 'context';
}

export interface UsageCommand {
  type: 'usage';
  /** Overrides the last-used model for routing. */
  model?: string;
}

export interface RuntimeStatusCommand {
  type: 'runtime_status';
}

/** Ours (capability `approval_escalations`): the session's escalations and granted allow patterns, as `approval_escalations`. */
export interface ListApprovalEscalationsCommand {
  type: 'list_approval_escalations';
}

/** Ours: drops the "always" escalations (and their sidecar) and the allow rules granted this session; answers `approval_escalations`. */
export interface ClearApprovalEscalationsCommand {
  type: 'clear_approval_escalations';
}

// ── Providers and keys ──────────────────────────────────────────────────────

/** Runtime-only key; not persisted. */
export interface SetKeyCommand {
  type: 'set_key';
  api_key: string;
  /** Omitted: the active provider. */
  provider?: string;
}

export interface SetSearchKeyCommand {
  type: 'set_search_key';
  provider: SearchProvider;
  /** "" clears the stored key. */
  api_key: string;
  /**
   * Ours (`runtime_search_keys`): also write the key to config.json `search_keys`, as upstream always does. Without it our
   * core keeps the key in memory only, for this process.
   */
  persist?: boolean;
}

export interface SetProviderCommand {
  type: 'set_provider';
  name: string;
}

export interface ListProviderPresetsCommand {
  type: 'list_provider_presets';
}

/** Persists the provider and key to config.json. */
export interface LoginCommand {
  type: 'login';
  preset: string;
  api_key?: string;
}

export interface LogoutCommand {
  type: 'logout';
  provider: string;
}

export interface LoginOauthCommand {
  type: 'login_oauth';
  preset: string;
}

export interface OauthCodeCommand {
  type: 'oauth_code';
  code: string;
}

export interface AddCustomProviderCommand {
  type: 'add_custom_provider';
  name: string;
  base_url: string;
  kind?: ProviderKind;
  api_key?: string;
  api_key_env?: string;
  headers?: HeadersSpec;
  context_window?: number;
  models_override?: ModelsOverrideSpec;
  /**
   * Ours (upstream ignores it): a `set_key` for this provider follows. The core then neither reports the provider
   * logged in nor lists its models until the key is there, so an endpoint that needs one (a loopback vLLM started
   * with --api-key) is not first listed without it (a false "HTTP 401" in the chat). The key itself never comes here,
   * which would persist it in config.json.
   */
  key_follows?: boolean;
}

/** Lists an endpoint's models without persisting a provider. */
export interface DiscoverProviderModelsCommand {
  type: 'discover_provider_models';
  base_url: string;
  kind?: ProviderKind;
  api_key?: string;
  headers?: HeadersSpec;
}

export interface RefreshModelsCommand {
  type: 'refresh_models';
}

// ── Settings ────────────────────────────────────────────────────────────────

export interface SetApprovalCommand {
  type: 'set_approval';
  mode: ApprovalMode;
}

/** Runtime config keys upstream recognises; any other key is answered with an error. */
export type ConfigKey =
  'bash_timeout_secs' | 'auto_compact' | 'advisor.enabled' | 'advisor.subagents' | 'advisor.model' | 'advisor.subagent_model' | 'sandbox';

export interface SetConfigCommand {
  type: 'set_config';
  key: ConfigKey | (string & {});
  /** Coerced from the JSON type (string or number) by the core. */
  value: unknown;
}

export interface GetVisionConfigCommand {
  type: 'get_vision_config';
}

export interface SetVisionConfigCommand {
  type: 'set_vision_config';
  /** Defaults to true. */
  enabled?: boolean;
  vision_models?: string[];
  /** Preferred handoff target; empty or null means the cheapest same-provider model. */
  vision_model?: string | null;
  /** Ours (upstream has only `switch`): `describe` lets the vision model describe the images for the chosen model. Omitted: unchanged. */
  mode?: 'switch' | 'describe';
}

// ── Sessions ────────────────────────────────────────────────────────────────

export interface ListSessionsCommand {
  type: 'list_sessions';
}

export interface LoadSessionCommand {
  type: 'load_session';
  /** A relative path resolves against the current session's directory. */
  path: string;
}

export interface NewSessionCommand {
  type: 'new_session';
  /** A file name, not a path. */
  path?: string;
}

export interface RenameSessionCommand {
  type: 'rename_session';
  path: string;
  title: string;
}

export interface DeleteSessionCommand {
  type: 'delete_session';
  path: string;
}

export interface PinSessionCommand {
  type: 'pin_session';
  path: string;
  pinned: boolean;
}

// ── Checkpoints ─────────────────────────────────────────────────────────────

export interface CreateCheckpointCommand {
  type: 'create_checkpoint';
  label?: string;
  /** Omitted: snapshot everything. */
  paths?: string[];
}

export interface ListCheckpointsCommand {
  type: 'list_checkpoints';
}

export interface RestoreCheckpointCommand {
  type: 'restore_checkpoint';
  id: string;
  /**
   * Ours (capability `checkpoint_files`): restore only these workspace-relative files; a path the checkpoint does
   * not have is deleted. Omitted or empty: the whole checkpoint.
   */
  paths?: string[];
}

/** Ours (capability `checkpoint_files`): removes a checkpoint and its snapshot → `checkpoint_deleted`. */
export interface DeleteCheckpointCommand {
  type: 'delete_checkpoint';
  id: string;
}

/** Ours (capability `checkpoint_files`): how the working tree differs from a checkpoint → `checkpoint_changes`. */
export interface CheckpointChangesCommand {
  type: 'checkpoint_changes';
  id: string;
}

/** Ours (capability `checkpoint_files`): one file's content at a checkpoint → `checkpoint_file`. */
export interface CheckpointFileCommand {
  type: 'checkpoint_file';
  id: string;
  /** Workspace-relative. */
  path: string;
}

// ── Interaction replies ─────────────────────────────────────────────────────

export interface ApproveCommand {
  type: 'approve';
  request_id: string;
  /** Any other value is treated as a denial by the core. */
  decision: ApprovalDecision;
  /** For allow_pattern; defaults to the tool's path or command argument. */
  pattern?: string;
  /**
   * Our extension (capability `approval_edited_content`): the user's edited full file content
   * for a write_file/edit/patch proposal, written instead of the model's version.
   */
  edited_content?: string;
}

export interface AskReplyCommand {
  type: 'ask_reply';
  request_id: string;
  answers: AskAnswers;
}

export interface SudoReplyCommand {
  type: 'sudo_reply';
  request_id: string;
  /** Defaults to false (declined). */
  approved?: boolean;
  /** Fed once to `sudo -S`; never stored. */
  password?: string;
}

export interface IntercomReplyCommand {
  type: 'intercom_reply';
  /** The `id` of the intercom_message. */
  request_id: string;
  reply: string;
}

// ── Memory ──────────────────────────────────────────────────────────────────

export interface SaveMemoryCommand {
  type: 'save_memory';
  text: string;
  tags?: string[];
  /** Defaults to "workspace". */
  scope?: InstallScope;
}

export interface ListMemoryCommand {
  type: 'list_memory';
}

export interface ForgetMemoryCommand {
  type: 'forget_memory';
  id: string;
  /** Omitted: search both scopes. */
  scope?: InstallScope;
}

export interface RefreshMemoryCommand {
  type: 'refresh_memory';
}

// ── Plugins ─────────────────────────────────────────────────────────────────

export interface InstallPluginCommand {
  type: 'install_plugin';
  /** A local directory, owner/repo[@tag], or a GitHub URL. */
  path: string;
  /** Defaults to "global". */
  scope?: InstallScope;
}

export interface RemovePluginCommand {
  type: 'remove_plugin';
  name: string;
}

export interface EnablePluginCommand {
  type: 'enable_plugin';
  name: string;
}

export interface DisablePluginCommand {
  type: 'disable_plugin';
  name: string;
}

export interface ListPluginsCommand {
  type: 'list_plugins';
}

export interface ReloadPluginsCommand {
  type: 'reload_plugins';
}

export interface ListPluginCommandsCommand {
  type: 'list_plugin_commands';
}

export interface PluginTrustPromptCommand {
  type: 'plugin_trust_prompt';
}

export interface PluginTrustDecisionsCommand {
  type: 'plugin_trust_decisions';
  /** Plugin name → decision; names left out keep their earlier decision. */
  decisions: Record<string, PluginTrustDecision>;
}

export interface PluginCommandCommand {
  type: 'plugin_command';
  name: string;
  args?: string;
}

// ── Agents and skills ───────────────────────────────────────────────────────

export interface ListAgentsCommand {
  type: 'list_agents';
}

export interface ListSkillsCommand {
  type: 'list_skills';
}

export interface ListMarketplaceSkillsCommand {
  type: 'list_marketplace_skills';
}

export interface AcceptSkillDisclaimerCommand {
  type: 'accept_skill_disclaimer';
}

export interface SearchMarketplaceSkillsCommand {
  type: 'search_marketplace_skills';
  query: string;
}

export interface InstallMarketplaceSkillCommand {
  type: 'install_marketplace_skill';
  source: string;
  name: string;
  scope: SkillInstallScope;
}

export interface UpdateMarketplaceSkillCommand {
  type: 'update_marketplace_skill';
  name: string;
  scope: SkillInstallScope;
}

export interface RemoveMarketplaceSkillCommand {
  type: 'remove_marketplace_skill';
  name: string;
  scope: SkillInstallScope;
}

// ── Goal mode ───────────────────────────────────────────────────────────────

export interface StartGoalCommand {
  type: 'start_goal';
  goal: string;
  model: string;
  concurrency?: number;
  max_tasks?: number;
  allowed_models?: string[];
  allowed_providers?: string[];
  /** Defaults to true; false stops at plan_ready until approve_goal_plan. */
  auto_deploy?: boolean;
  ceo_mode?: boolean;
  max_iterations?: number;
  max_plan_revisions?: number;
  planner_model?: string;
  worker_model?: string;
  reviewer_model?: string;
  /** Model id → max concurrent runs. */
  model_concurrency?: Record<string, number>;
  reasoning_effort?: ReasoningEffort;
}

export interface CancelGoalCommand {
  type: 'cancel_goal';
}

export interface GoalStatusCommand {
  type: 'goal_status';
}

export interface ApproveGoalPlanCommand {
  type: 'approve_goal_plan';
}

export interface ReviseGoalCommand {
  type: 'revise_goal';
  feedback: string;
  model: string;
  reasoning_effort?: ReasoningEffort;
}

// ── Sandbox ─────────────────────────────────────────────────────────────────

export interface GetSandboxStatusCommand {
  type: 'get_sandbox_status';
}

export interface PrepareSandboxCommand {
  type: 'prepare_sandbox';
}

export interface ResetSandboxCommand {
  type: 'reset_sandbox';
}

// ── The union ───────────────────────────────────────────────────────────────

export type Command =
  | InitCommand
  | SendCommand
  | SteerCommand
  | AbortCommand
  | ClearQueueCommand
  | ResetCommand
  | ClearCommand
  | UndoCommand
  | CompactCommand
  | UserBashCommand
  | ApplySkillCommand
  | StatsCommand
  | ContextCommand
  | UsageCommand
  | RuntimeStatusCommand
  | ListApprovalEscalationsCommand
  | ClearApprovalEscalationsCommand
  | SetKeyCommand
  | SetSearchKeyCommand
  | SetProviderCommand
  | ListProviderPresetsCommand
  | LoginCommand
  | LogoutCommand
  | LoginOauthCommand
  | OauthCodeCommand
  | AddCustomProviderCommand
  | DiscoverProviderModelsCommand
  | RefreshModelsCommand
  | SetApprovalCommand
  | SetConfigCommand
  | GetVisionConfigCommand
  | SetVisionConfigCommand
  | ListSessionsCommand
  | LoadSessionCommand
  | NewSessionCommand
  | RenameSessionCommand
  | DeleteSessionCommand
  | PinSessionCommand
  | CreateCheckpointCommand
  | ListCheckpointsCommand
  | RestoreCheckpointCommand
  | DeleteCheckpointCommand
  | CheckpointChangesCommand
  | CheckpointFileCommand
  | ApproveCommand
  | AskReplyCommand
  | SudoReplyCommand
  | IntercomReplyCommand
  | SaveMemoryCommand
  | ListMemoryCommand
  | ForgetMemoryCommand
  | RefreshMemoryCommand
  | InstallPluginCommand
  | RemovePluginCommand
  | EnablePluginCommand
  | DisablePluginCommand
  | ListPluginsCommand
  | ReloadPluginsCommand
  | ListPluginCommandsCommand
  | PluginTrustPromptCommand
  | PluginTrustDecisionsCommand
  | PluginCommandCommand
  | ListAgentsCommand
  | ListSkillsCommand
  | ListMarketplaceSkillsCommand
  | AcceptSkillDisclaimerCommand
  | SearchMarketplaceSkillsCommand
  | InstallMarketplaceSkillCommand
  | UpdateMarketplaceSkillCommand
  | RemoveMarketplaceSkillCommand
  | StartGoalCommand
  | CancelGoalCommand
  | GoalStatusCommand
  | ApproveGoalPlanCommand
  | ReviseGoalCommand
  | GetSandboxStatusCommand
  | PrepareSandboxCommand
  | ResetSandboxCommand;

export type CommandType = Command['type'];

export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

// `satisfies Record<CommandType, true>` makes the compiler reject a missing or an unknown type.
const COMMAND_TYPE_TABLE = {
  init: true,
  send: true,
  steer: true,
  abort: true,
  clear_queue: true,
  reset: true,
  clear: true,
  undo: true,
  compact: true,
  user_bash: true,
  apply_skill: true,
  stats: true,
  context: true,
  usage: true,
  runtime_status: true,
  list_approval_escalations: true,
  clear_approval_escalations: true,
  set_key: true,
  set_search_key: true,
  set_provider: true,
  list_provider_presets: true,
  login: true,
  logout: true,
  login_oauth: true,
  oauth_code: true,
  add_custom_provider: true,
  discover_provider_models: true,
  refresh_models: true,
  set_approval: true,
  set_config: true,
  get_vision_config: true,
  set_vision_config: true,
  list_sessions: true,
  load_session: true,
  new_session: true,
  rename_session: true,
  delete_session: true,
  pin_session: true,
  create_checkpoint: true,
  list_checkpoints: true,
  restore_checkpoint: true,
  delete_checkpoint: true,
  checkpoint_changes: true,
  checkpoint_file: true,
  approve: true,
  ask_reply: true,
  sudo_reply: true,
  intercom_reply: true,
  save_memory: true,
  list_memory: true,
  forget_memory: true,
  refresh_memory: true,
  install_plugin: true,
  remove_plugin: true,
  enable_plugin: true,
  disable_plugin: true,
  list_plugins: true,
  reload_plugins: true,
  list_plugin_commands: true,
  plugin_trust_prompt: true,
  plugin_trust_decisions: true,
  plugin_command: true,
  list_agents: true,
  list_skills: true,
  list_marketplace_skills: true,
  accept_skill_disclaimer: true,
  search_marketplace_skills: true,
  install_marketplace_skill: true,
  update_marketplace_skill: true,
  remove_marketplace_skill: true,
  start_goal: true,
  cancel_goal: true,
  goal_status: true,
  approve_goal_plan: true,
  revise_goal: true,
  get_sandbox_status: true,
  prepare_sandbox: true,
  reset_sandbox: true,
} as const satisfies Record<CommandType, true>;

export const COMMAND_TYPES: readonly CommandType[] = Object.freeze(Object.keys(COMMAND_TYPE_TABLE) as CommandType[]);

/**
 * Our own command types, each with the capability whose events answer it: a client that did not announce that capability
 * in `init.client.capabilities` gets `error{code:"unsupported"}` instead, before anything is done (it would not be sent
 * the answer).
 */
export const EXTENSION_COMMAND_CAPABILITIES = Object.freeze({
  delete_checkpoint: CAPABILITY_CHECKPOINT_FILES,
  checkpoint_changes: CAPABILITY_CHECKPOINT_FILES,
  checkpoint_file: CAPABILITY_CHECKPOINT_FILES,
  list_approval_escalations: CAPABILITY_APPROVAL_ESCALATIONS,
  clear_approval_escalations: CAPABILITY_APPROVAL_ESCALATIONS,
} as const satisfies Partial<Record<CommandType, string>>);

/** Command types that are ours, not upstream's (the rest of COMMAND_TYPES is upstream's catalog of 73). */
export const EXTENSION_COMMAND_TYPES: readonly CommandType[] = Object.freeze(Object.keys(EXTENSION_COMMAND_CAPABILITIES) as CommandType[]);

/** The capability a client must have announced to send a command of `type`, or undefined for upstream's commands. */
export function capabilityForCommand(type: string): string | undefined {
  return Object.hasOwn(EXTENSION_COMMAND_CAPABILITIES, type)
    ? EXTENSION_COMMAND_CAPABILITIES[type as keyof typeof EXTENSION_COMMAND_CAPABILITIES]
    : undefined;
}

export function isCommandType(type: string): type is CommandType {
  return Object.hasOwn(COMMAND_TYPE_TABLE, type);
}
