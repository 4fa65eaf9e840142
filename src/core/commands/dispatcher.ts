import { capabilityForCommand, isCommand, isCommandType, type Command, type CommandOf, type CommandType } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { scrubText } from '../runtime/redact';
import { handleListAgents } from './agentCommands';
import {
  handleCheckpointQuery,
  handleCreateCheckpoint,
  handleDeleteCheckpoint,
  handleListCheckpoints,
  handleRestoreCheckpoint,
  handleUndo,
} from './checkpointCommands';
import { handleCompact } from './compactCommand';
import { handleInit } from './initCommand';
import {
  handleAbortWithGoal,
  handleApproveGoalPlan,
  handleCancelGoal,
  handleGoalStatus,
  handleReviseGoal,
  handleStartGoal,
} from './goalCommands';
import { handleGetVisionConfig, handleSetVisionConfig } from './visionCommands';
import {
  handleDisablePlugin,
  handleEnablePlugin,
  handleInstallPlugin,
  handleListPluginCommands,
  handleListPlugins,
  handlePluginCommand,
  handlePluginTrustDecisions,
  handlePluginTrustPrompt,
  handleReloadPlugins,
  handleRemovePlugin,
} from './pluginCommands';
import { handleApprove, handleAskReply, handleIntercomReply, handleSudoReply } from './interactionCommands';
import {
  handleAddCustomProvider,
  handleDiscoverProviderModels,
  handleLogin,
  handleLogout,
  handleRefreshModels,
  handleSetKey,
  handleSetProvider,
} from './providerCommands';
import { presetsEvent } from './providerEvents';
import {
  handleDeleteSession,
  handleListSessions,
  handleLoadSession,
  handleNewSession,
  handlePinSession,
  handleRenameSession,
  handleReset,
} from './sessionCommands';
import {
  handleAcceptSkillDisclaimer,
  handleApplySkill,
  handleInstallMarketplaceSkill,
  handleListMarketplaceSkills,
  handleListSkills,
  handleRemoveMarketplaceSkill,
  handleSearchMarketplaceSkills,
  handleUpdateMarketplaceSkill,
} from './skillCommands';
import { handleApprovalEscalations, handleMemory, handleSetApproval, handleSetConfig } from './settingsCommands';
import { handleContext, handleRuntimeStatus, handleStats } from './statusCommands';
import { handleClearQueue, handleSend, handleSteer } from './turnCommands';
import { handleSetSearchKey } from './webCommands';
import { handleUserBash } from './userBashCommand';
import { handleLoginOauth, handleOauthCode } from './oauthCommands';
import { handleUsage } from './usageCommand';

/** Answers one command of type K: the parameter is that command's interface, so a field the mirror lacks does not compile. */
type Handler<K extends CommandType> = (rt: CoreRuntime, cmd: CommandOf<K>) => void | Promise<void>;

type Handlers = { [K in CommandType]?: Handler<K> };

/** Command type → handler. Commands missing here answer `error{code:"unsupported"}` and the core keeps running. */
const HANDLERS: Handlers = {
  init: handleInit,
  send: handleSend,
  steer: handleSteer,
  abort: handleAbortWithGoal,
  clear_queue: handleClearQueue,
  reset: (rt) => handleReset(rt, true),
  clear: (rt) => handleReset(rt, false),
  undo: handleUndo,
  compact: handleCompact,
  user_bash: handleUserBash,
  stats: handleStats,
  context: handleContext,
  usage: handleUsage,
  runtime_status: handleRuntimeStatus,
  set_key: handleSetKey,
  set_provider: handleSetProvider,
  set_search_key: handleSetSearchKey,
  list_provider_presets: (rt) => rt.emit(presetsEvent(rt)),
  login: handleLogin,
  logout: handleLogout,
  login_oauth: handleLoginOauth,
  oauth_code: handleOauthCode,
  add_custom_provider: handleAddCustomProvider,
  discover_provider_models: handleDiscoverProviderModels,
  refresh_models: handleRefreshModels,
  set_approval: handleSetApproval,
  list_approval_escalations: handleApprovalEscalations,
  clear_approval_escalations: handleApprovalEscalations,
  set_config: handleSetConfig,
  list_sessions: handleListSessions,
  load_session: handleLoadSession,
  new_session: handleNewSession,
  rename_session: handleRenameSession,
  delete_session: handleDeleteSession,
  pin_session: handlePinSession,
  create_checkpoint: handleCreateCheckpoint,
  list_checkpoints: handleListCheckpoints,
  restore_checkpoint: handleRestoreCheckpoint,
  delete_checkpoint: handleDeleteCheckpoint,
  checkpoint_changes: handleCheckpointQuery,
  checkpoint_file: handleCheckpointQuery,
  approve: handleApprove,
  ask_reply: handleAskReply,
  sudo_reply: handleSudoReply,
  intercom_reply: handleIntercomReply,
  save_memory: handleMemory,
  list_memory: handleMemory,
  forget_memory: handleMemory,
  refresh_memory: handleMemory,
  list_agents: handleListAgents,
  list_skills: handleListSkills,
  apply_skill: handleApplySkill,
  list_marketplace_skills: handleListMarketplaceSkills,
  accept_skill_disclaimer: handleAcceptSkillDisclaimer,
  search_marketplace_skills: handleSearchMarketplaceSkills,
  install_marketplace_skill: handleInstallMarketplaceSkill,
  update_marketplace_skill: handleUpdateMarketplaceSkill,
  remove_marketplace_skill: handleRemoveMarketplaceSkill,
  list_plugins: handleListPlugins,
  list_plugin_commands: handleListPluginCommands,
  install_plugin: handleInstallPlugin,
  remove_plugin: handleRemovePlugin,
  enable_plugin: handleEnablePlugin,
  disable_plugin: handleDisablePlugin,
  reload_plugins: handleReloadPlugins,
  plugin_trust_prompt: handlePluginTrustPrompt,
  plugin_trust_decisions: handlePluginTrustDecisions,
  plugin_command: handlePluginCommand,
  get_vision_config: handleGetVisionConfig,
  set_vision_config: handleSetVisionConfig,
  goal_status: handleGoalStatus,
  start_goal: handleStartGoal,
  approve_goal_plan: handleApproveGoalPlan,
  cancel_goal: handleCancelGoal,
  revise_goal: handleReviseGoal,
};

/**
 * Routes one decoded line. Nothing a client sends ends the process: a bad shape is `invalid_command`, an unknown or
 * unimplemented type is `unsupported`, so is one of our own commands from a client that did not announce its capability
 * in init (EXTENSION_COMMAND_CAPABILITIES: it would not be sent the answer), and a handler's exception becomes an `error`.
 */
export async function dispatch(rt: CoreRuntime, value: unknown): Promise<void> {
  if (!isCommand(value)) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'bad command: missing string field "type"' });
    return;
  }
  if (nestedDeeperThan(value, MAX_COMMAND_DEPTH)) {
    rt.emit({ type: 'error', code: 'invalid_command', message: `bad command: nested deeper than ${MAX_COMMAND_DEPTH} levels` });
    return;
  }
  const handler = isCommandType(value.type) ? handlerOf(value.type) : undefined;
  if (!handler) {
    rt.emit({ type: 'error', code: 'unsupported', message: `unsupported command: ${value.type.slice(0, 80)}` });
    return;
  }
  const capability = capabilityForCommand(value.type);
  if (capability && !rt.clientCapabilities.has(capability)) {
    rt.emit({
      type: 'error',
      code: 'unsupported',
      message: `unsupported command: ${value.type} (ours: announce the capability ${capability} in init.client.capabilities)`,
    });
    return;
  }
  try {
    // Only `type` was checked: each handler checks the run-time type of every field it reads (a client can send anything).
    await handler(rt, value as Command);
  } catch (err) {
    rt.log(`command ${value.type} failed: ${(err as Error).stack ?? err}`);
    rt.emit({ type: 'error', code: 'command_failed', message: `${value.type} failed: ${scrubText((err as Error).message, rt.secrets())}` });
  }
}

/** Own keys only: a type such as "constructor" or "toString" must not reach Object.prototype's functions. */
function handlerOf<K extends CommandType>(type: K): Handler<K> | undefined {
  return Object.hasOwn(HANDLERS, type) ? HANDLERS[type] : undefined;
}

/**
 * upstream's serde_json refuses JSON nested deeper than 128; JSON.parse does not, and a value 100,000 levels deep
 * overflows the stack of any recursive code that later touches it (String(), JSON.stringify, redaction).
 */
const MAX_COMMAND_DEPTH = 128;

/** Iterative, so the check itself cannot overflow. */
function nestedDeeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
