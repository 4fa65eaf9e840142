import type { AgentInfo } from '../../protocol';
import type { Patch } from '../../shared/statePatch';
import type { ApprovalEscalations, ApprovalMode, SessionState, ApprovalDecision, SkillView } from '../../shared/sessionState';
import type { SkillMarketplaceCommand } from './skillRequests';
import type { GoalCoreAction, GoalStartForm } from './goalIntents';
import type { InstallScope } from '../../protocol';
import type { PluginAction } from './pluginIntents';
import type { MemoryView } from './memoryEntries';
import type { VisionSettings } from './visionSettings';
import type { LiveConfig } from './liveSettings';

/**
 * The part of the SessionController (./sessionController.ts) the VS Code glue uses. Declared apart from it so the glue
 * states its dependency in one place; SessionController satisfies it structurally.
 */
export interface ChatSession {
  readonly state: SessionState;
  /** Never rejects: a failure to start ends up in the state. */
  start(): Promise<unknown>;
  stop(): Promise<unknown>;
  /** Stops the core and drops every listener. */
  dispose(): Promise<unknown>;
  restart(): Promise<unknown>;
  onDidChange(listener: (state: SessionState, patches: Patch[]) => void): { dispose(): void };
  onEvent(listener: (event: { type: string; [field: string]: unknown }) => void): { dispose(): void };
  capabilities(): ReadonlySet<string>;

  sendPrompt(text: string, images: string[]): unknown;
  steer(text: string): unknown;
  abort(): unknown;
  clearQueue(): unknown;
  /** `!cmd` / `!!cmd` (excludeFromContext): user_bash, refused with a notice during a run. */
  userBash(command: string, excludeFromContext?: boolean): unknown;
  /** The core's durable notes (its next `memory_list` answer), undefined when it cannot say. */
  fetchMemory(): Promise<MemoryView[] | undefined>;
  /** forget_memory: the core's answer (its message), undefined when it cannot answer. */
  forgetMemory(id: string): Promise<string | undefined>;
  refreshMemory(): unknown;
  /** The vision hand-off settings (get_vision_config's answer), undefined when the core cannot say. */
  fetchVisionConfig(): Promise<VisionSettings | undefined>;
  /** set_vision_config: the saved settings, or the core's error text. */
  saveVisionConfig(settings: Omit<VisionSettings, 'models'>): Promise<VisionSettings | string | undefined>;
  /** The escalations for the approval-mode picker (our core's list, cleared first with `clear`); undefined when it cannot say. */
  approvalEscalations(clear?: boolean): Promise<ApprovalEscalations | undefined>;
  /** Asks the core for its runtime_status (the stats view awaits the answer). */
  runtimeStatus(): unknown;
  /** set_config for a setting the core changes live; kept and sent again to a restarted core. */
  setRuntimeConfig(config: LiveConfig): unknown;
  // A server-side queue (SCV, capability server_queue); each refuses with a notice when the id is no longer queued.
  editQueued(id: string, prompt: string): unknown;
  /** Moves `id` before `beforeId`; null moves it to the end. */
  moveQueued(id: string, beforeId: string | null): unknown;
  removeQueued(id: string): unknown;
  pauseQueue(paused: boolean): unknown;
  approve(requestId: string, decision: ApprovalDecision, opts?: { pattern?: string; editedContent?: string }): unknown;
  askReply(requestId: string, answers: Record<string, string> | null): unknown;
  sudoReply(requestId: string, approved: boolean, password?: string): unknown;
  /** A subagent's intercom question; `reply` never empty. */
  intercomReply(id: string, reply: string): unknown;
  listAgents(): unknown;
  /** The core's agents (its next `agents` answer), undefined when it cannot say. */
  fetchAgents(): Promise<AgentInfo[] | undefined>;
  /** Asks the model to run `agent` on `task` through the subagent tool (upstream's wording). */
  runSubagent(agent: string, task: string): unknown;
  /** `/skills`: the core's skills as a notice in the chat. */
  listSkills(): unknown;
  /** The core's skills (its next `skills` answer), undefined when it cannot say. */
  fetchSkills(): Promise<SkillView[] | undefined>;
  /** `apply_skill`: a turn on the selected model whose prompt the core builds from the skill; shown as `/skill:<name> [task]`. */
  applySkill(name: string, task?: string): unknown;
  /** Sends a marketplace command and resolves with the core's answer (one of `answers`), undefined when it cannot answer. */
  skillMarketplace(
    cmd: SkillMarketplaceCommand,
    answers: readonly string[],
  ): Promise<{ type: string; [field: string]: unknown } | undefined>;
  /** Goal mode's start_goal (the session's model and effort unless the form names a model). */
  startGoal(form: GoalStartForm): unknown;
  /** approve_goal_plan, revise_goal (feedback never empty), cancel_goal, goal_status. */
  goalAction(action: GoalCoreAction, feedback?: string): unknown;
  // Plugins: each sends one checked command (false when refused: no plugins on this core, not ready, bad input).
  listPlugins(): boolean;
  reloadPlugins(): boolean;
  /** Asks the core for its plugin_trust_prompt. */
  requestPluginTrust(): boolean;
  /** plugin_trust_decisions keyed by plugin path. */
  trustPlugins(decisions: Record<string, string>): boolean;
  installPlugin(path: string, scope: InstallScope): boolean;
  pluginAction(action: PluginAction, name: string): boolean;
  pluginCommand(name: string, args?: string): boolean;
  setModel(model: string): unknown;
  setReasoning(effort: string): unknown;
  setApprovalMode(mode: ApprovalMode): unknown;
  newSession(): unknown;
  loadSession(path: string): unknown;
  renameSession(path: string, title: string): unknown;
  pinSession(path: string, pinned: boolean): unknown;
  deleteSession(path: string): unknown;
  listSessions(): unknown;
  undo(): unknown;
  compact(): unknown;
  /** `report`: also show the figures as a notice in the chat. */
  stats(report?: boolean): unknown;
  context(report?: boolean): unknown;
  setKey(provider: string, key: string): unknown;
  /** A web-search key for this core process only ("" clears it); `quiet`: say nothing when the core cannot keep it off disk. */
  setSearchKey(provider: 'exa' | 'tavily', key: string, quiet?: boolean): boolean;
  /** `keyFollows`: a `setKey` for it comes next, so the core lists its models only with the key. */
  addCustomProvider(p: {
    name: string;
    baseUrl: string;
    kind: 'openai' | 'anthropic';
    headers?: Record<string, string>;
    keyFollows?: boolean;
  }): unknown;
  logout(provider: string): unknown;
  /** Plugin OAuth (a preset with supportsOauth): login_oauth, then oauth_code when the prompt needs a pasted code. */
  loginOauth(preset: string): boolean;
  oauthCode(code: string): boolean;
  refreshModels(): unknown;
  setProvider(name: string): unknown;
  usage(model?: string): unknown;
  runSlash(name: string, args: string): unknown;

  // Checkpoints: each sends one validated command (false when refused); the answers arrive as core events.
  listCheckpoints(): unknown;
  createCheckpoint(label?: string): unknown;
  /** With `paths`, only those files (needs the `checkpoint_files` capability). */
  restoreCheckpoint(id: string, paths?: readonly string[]): unknown;
  deleteCheckpoint(id: string): unknown;
  checkpointChanges(id: string): unknown;
  checkpointFile(id: string, path: string): unknown;
}
