import type { AgentInfo, CommandOf, HeadersSpec, InstallScope, ProviderKind, SearchProvider } from '../../protocol';
import { timestampedSessionName } from '../../protocol/sessionLayout';
import { supports, type UiCapability } from '../../shared/coreCapabilities';
import {
  type ApprovalEscalations,
  type ApprovalMode,
  type NoticeItem,
  type SessionState,
  initialSessionState,
  UI_CAPABILITIES,
  APPROVAL_DECISIONS,
  type ApprovalDecision,
  type SkillView,
} from '../../shared/sessionState';
import { isCheckpointId, safeRelativePath } from '../checkpoints/checkpointEvents';
import type { ServerQueueControl } from '../channel/coreChannel';
import type { Disposable } from '../channel/coreConnection';
import type { WireEvent } from '../state/eventFields';
import { CoreSupervisor, type CoreSupervisorOptions } from '../channel/coreSupervisor';
import { records, str } from '../state/eventFields';
import { isApprovalMode } from '../state/reduceCore';
import { perChangeOffReason } from '../review/perChangeReview';
import { SessionStore, type StateListener } from '../state/sessionStore';
import { memoryEntries, type MemoryView } from './memoryEntries';
import { usageNotice } from '../presentation/usageNotice';
import type { LiveConfig, LiveConfigKey } from './liveSettings';
import { setVisionConfigCommand, visionSettingsOf, type VisionSettings } from './visionSettings';
import { isMarketplaceCommand, shownSkillPrompt, skillsReport, type SkillMarketplaceCommand } from './skillRequests';
import { runSlashCommand, type SlashTarget } from './slashCommands';
import { goalActionCommand, startGoalCommand, type GoalCoreAction, type GoalStartForm } from './goalIntents';
import { installPluginCommand, pluginActionCommand, runPluginCommand, trustDecisionsCommand, type PluginAction } from './pluginIntents';

export type { StateListener } from '../state/sessionStore';

export interface SessionControllerOptions extends CoreSupervisorOptions {
  /** The client's own log (the output channel); core stderr lines land here too. */
  log?: (line: string) => void;
  /** Preselected model (a setting); kept when the core lists it, otherwise the first listed model is used. */
  defaultModel?: string;
}

interface ApproveOptions {
  pattern?: string;
  editedContent?: string;
}

export interface CustomProviderSpec {
  name: string;
  baseUrl: string;
  kind: ProviderKind;
  headers?: HeadersSpec;
  /** A `setKey` for this provider follows: the core waits for it before listing the models (`key_follows`). */
  keyFollows?: boolean;
}

/**
 * One core for one workspace folder and the session model derived from its events. The core's process (start,
 * restart after a crash, resume) is the `CoreSupervisor`'s; this turns the user's intents into validated commands.
 * Listeners get every state change synchronously with its patches.
 */
export class SessionController implements SlashTarget {
  private readonly store: SessionStore;
  private readonly core: CoreSupervisor;
  private readonly reportsRequested = new Set<'stats' | 'context_breakdown' | 'agents' | 'skills'>();
  /** The settings changed with set_config since launch, sent again to a restarted core. */
  private readonly liveConfig = new Map<LiveConfigKey, number | boolean>();
  private readonly log: (line: string) => void;

  constructor(private readonly o: SessionControllerOptions) {
    this.log = guardedLog(o.log);
    const initial = initialSessionState(o.launch.kind);
    this.store = new SessionStore(o.defaultModel ? { ...initial, model: o.defaultModel } : initial, this.log);
    this.core = new CoreSupervisor(o, {
      store: this.store,
      log: this.log,
      sendHeldPrompt: (text, images) => this.sendPrompt(text, images),
    });
    // Registered first, so a requested report is in the state before any other listener sees the event.
    this.core.onEvent((e) => this.reportIfRequested(e));
    this.resendLiveConfigOnReady();
  }

  get state(): SessionState {
    return this.store.state;
  }

  /** The session file the core was (or will be) started with; follows `session_changed`. */
  get currentSessionFile(): string | undefined {
    return this.core.sessionFile;
  }

  capabilities(): Set<string> {
    return new Set(this.state.core.capabilities);
  }

  onDidChange(listener: StateListener): Disposable {
    return this.store.onDidChange(listener);
  }

  /** Raw core events, after the state has been updated for them. */
  onEvent(listener: (e: WireEvent) => void): Disposable {
    return this.core.onEvent(listener);
  }

  // ── Lifecycle ──────────────────────────────────────────────────────────────

  /** Starts the core unless it is running; resolves true once it is ready. Failures end up in the state, never thrown. */
  start(): Promise<boolean> {
    return this.core.start();
  }

  /** User-requested: stop, then start again on the same session, with a fresh crash budget. */
  restart(): Promise<boolean> {
    return this.core.restart();
  }

  stop(): Promise<void> {
    return this.core.stop();
  }

  async dispose(): Promise<void> {
    await this.core.dispose();
    this.store.dispose();
  }

  private reportIfRequested(e: WireEvent): void {
    if (e.type === 'stats' && this.reportsRequested.delete('stats')) {
      this.notice('info', usageNotice(this.state.usage));
    } else if (e.type === 'context_breakdown' && this.reportsRequested.delete('context_breakdown')) {
      const c = this.state.context;
      if (c) this.notice('info', `Context: ${c.tokens.toLocaleString('en-US')} of ${c.window.toLocaleString('en-US')} tokens (${c.pct}%).`);
    } else if (e.type === 'agents' && this.reportsRequested.delete('agents')) {
      this.notice('info', agentsReport(agentInfos(e.agents)));
    } else if (e.type === 'skills' && this.reportsRequested.delete('skills')) {
      this.notice('info', skillsReport(this.state.skills ?? []));
    }
  }

  // ── Intents ────────────────────────────────────────────────────────────────

  /**
   * While a run is going, a Catalyst core queues one prompt (shown as `run.queued`); a core with a server-side queue
   * (SCV) queues any number and shows them in `serverQueue`, and its adapter reports the prompt when its turn starts.
   */
  sendPrompt(text: string, images: string[] = []): boolean {
    if (typeof text !== 'string' || !text.trim()) return this.refuse('Type a message first.');
    if (!this.requireReady() || !this.withinPromptLimit(text)) return false;
    const model = this.state.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    if (this.core.holdsPrompts) return this.core.holdPrompt(text, images);
    const busy = this.state.run.status !== 'idle';
    const serverQueue = this.capabilities().has(UI_CAPABILITIES.serverQueue);
    if (busy && !serverQueue && this.state.run.queued !== undefined) {
      return this.refuse('A prompt is already queued. Wait for this turn, steer it, or clear the queue.');
    }
    // A server that keeps the queue decides whether the prompt runs now or waits: the adapter shows it when it runs.
    if (!serverQueue) this.store.dispatch({ type: 'client:prompt', text, images: images.length });
    const cmd: CommandOf<'send'> = {
      type: 'send',
      prompt: text,
      model,
      reasoning_effort: this.state.reasoningEffort,
      ...this.providerOf(model),
    };
    if (images.length) cmd.images = [...images];
    return this.core.send(cmd);
  }

  steer(text: string): boolean {
    if (typeof text !== 'string' || !text.trim()) return this.refuse('/steer needs the new instructions.');
    if (!this.requireReady() || !this.requireCapability(UI_CAPABILITIES.steer, 'steering')) return false;
    const model = this.state.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    return this.core.send({ type: 'steer', prompt: text, model, reasoning_effort: this.state.reasoningEffort, ...this.providerOf(model) });
  }

  abort(): boolean {
    return this.requireReady() && this.core.send({ type: 'abort' });
  }

  clearQueue(): boolean {
    return this.requireReady() && this.core.send({ type: 'clear_queue' });
  }

  /** Replaces the text of a prompt waiting in the server's queue. */
  editQueued(id: string, prompt: string): boolean {
    if (typeof prompt !== 'string' || !prompt.trim()) return this.refuse('A queued prompt cannot be empty; remove it instead.');
    const queue = this.queueFor(id);
    if (!queue || !this.withinPromptLimit(prompt)) return false;
    this.log(`→ queue edit ${id}`);
    return queue.edit(id, prompt);
  }

  /** Moves a queued prompt before `beforeId`, or to the end with null. */
  moveQueued(id: string, beforeId: string | null): boolean {
    const queue = this.queueFor(id);
    if (!queue) return false;
    if (beforeId === id) return false;
    if (beforeId !== null && !this.isQueued(beforeId)) return this.refuse('That place in the queue is gone; the queue changed meanwhile.');
    this.log(`→ queue move ${id} before ${beforeId ?? 'the end'}`);
    return queue.move(id, beforeId);
  }

  removeQueued(id: string): boolean {
    const queue = this.queueFor(id);
    if (!queue) return false;
    this.log(`→ queue remove ${id}`);
    return queue.remove(id);
  }

  /** Holds (or releases) the server's queue: a paused queue starts no queued prompt; the running turn goes on. */
  pauseQueue(paused: boolean): boolean {
    if (typeof paused !== 'boolean') return this.refuse('Pause takes true or false.');
    const queue = this.serverQueue();
    if (!queue) return false;
    this.log(`→ queue ${paused ? 'pause' : 'resume'}`);
    return queue.pause(paused);
  }

  approve(requestId: string, decision: ApprovalDecision, opts: ApproveOptions = {}): boolean {
    if (!(APPROVAL_DECISIONS as readonly string[]).includes(decision))
      return this.refuse(`Unknown approval decision: ${String(decision)}.`);
    const item = this.state.items.find((i) => i.kind === 'approval' && i.id === requestId);
    if (!item || item.kind !== 'approval' || item.state !== 'pending') return this.refuse('That approval is no longer pending.');
    if (!this.requireReady()) return false;
    const cmd: CommandOf<'approve'> = { type: 'approve', request_id: requestId, decision };
    if (decision === 'allow_pattern') {
      const pattern = opts.pattern?.trim() || item.suggestedPattern;
      if (pattern) cmd.pattern = pattern;
    }
    if (opts.editedContent !== undefined && decision !== 'no') {
      if (!this.capabilities().has(UI_CAPABILITIES.editedContent)) {
        return this.refuse(`${capitalized(perChangeOffReason(this.o.launch.kind))}. Accept or reject the proposal as the model wrote it.`);
      }
      cmd.edited_content = opts.editedContent;
    }
    // Only an edit the core will actually apply counts (a rejection never carries edited_content).
    // Marked answered only once the core took it: an adapter may refuse a decision its server cannot express.
    if (!this.core.send(cmd)) return false;
    this.store.dispatch({
      type: 'client:approval_answered',
      requestId,
      decision,
      ...(cmd.edited_content !== undefined ? { edited: true } : {}),
    });
    return true;
  }

  askReply(requestId: string, answers: Record<string, string> | null): boolean {
    if (!this.isPending('ask', requestId)) return this.refuse('That question is no longer open.');
    if (!this.requireReady()) return false;
    this.store.dispatch({ type: 'client:ask_answered', requestId, answers });
    return this.core.send({ type: 'ask_reply', request_id: requestId, answers: answers === null ? null : { ...answers } });
  }

  /** The answer to a subagent's intercom question; never empty (a child waits on it and would take '' as the decision). */
  intercomReply(id: string, reply: string): boolean {
    const text = typeof reply === 'string' ? reply.trim() : '';
    if (!text) return this.refuse('Type a reply for the subagent first.');
    if (!this.isPending('intercom', id)) return this.refuse('That subagent question is no longer open.');
    if (!this.requireReady()) return false;
    if (!this.core.send({ type: 'intercom_reply', request_id: id, reply: text })) return false;
    this.store.dispatch({ type: 'client:intercom_replied', id, reply: text });
    return true;
  }

  /** `/agents`: the core's agents, shown as a notice when they arrive. */
  listAgents(): boolean {
    if (!this.requireReady() || !this.requireSubagents()) return false;
    this.reportsRequested.add('agents');
    return this.core.send({ type: 'list_agents' });
  }

  /** The core's agents for a picker: its next `agents` answer; undefined if it cannot say (not ready, stopped meanwhile). */
  fetchAgents(): Promise<AgentInfo[] | undefined> {
    if (!this.requireReady() || !this.requireSubagents()) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const done = (agents: AgentInfo[] | undefined) => {
        events.dispose();
        status.dispose();
        resolve(agents);
      };
      const events = this.onEvent((e) => e.type === 'agents' && done(agentInfos(e.agents)));
      const status = this.onDidChange((s) => s.core.status !== 'ready' && done(undefined));
      if (!this.core.send({ type: 'list_agents' })) done(undefined);
    });
  }

  /** Runs one subagent through the model, in upstream's wording (its web client's /run), so any core's model can. */
  runSubagent(agent: string, task: string): boolean {
    const name = typeof agent === 'string' ? agent.trim() : '';
    const text = typeof task === 'string' ? task.trim() : '';
    if (!name || !text) return this.refuse('Pick an agent and describe its task.');
    if (!this.requireSubagents()) return false;
    return this.sendPrompt(subagentPrompt(name, text));
  }

  /** Goal mode: start_goal on the session's model (unless the form names one) and reasoning effort. */
  startGoal(form: GoalStartForm): boolean {
    if (typeof form?.goal !== 'string' || !form.goal.trim()) return this.refuse('Describe the goal: /goal <what to achieve>.');
    if (!this.requireGoal() || !this.requireReady()) return false;
    const model = form.model ?? this.state.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    return this.core.send(startGoalCommand(form, model, this.state.reasoningEffort));
  }

  /** The plan's buttons and the Control Center's refresh: approve_goal_plan, revise_goal{feedback}, cancel_goal, goal_status. */
  goalAction(action: GoalCoreAction, feedback = ''): boolean {
    if (action === 'revise' && (typeof feedback !== 'string' || !feedback.trim())) return this.refuse('Say what the plan should change.');
    if (!this.requireGoal() || !this.requireReady()) return false;
    const model = this.state.goal?.parentModel ?? this.state.model;
    if (action === 'revise' && !model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    return this.core.send(goalActionCommand(action, feedback, model ?? '', this.state.reasoningEffort));
  }

  // ── Plugins (research A §7.3): each sends one checked command; the answers arrive as core events. ──

  /** plugins_list and plugin_commands. */
  listPlugins(): boolean {
    return this.sendPluginCommand({ type: 'list_plugins' });
  }

  /** reload_plugins: a rescan, then the lists and a "plugins reloaded" line. */
  reloadPlugins(): boolean {
    return this.sendPluginCommand({ type: 'reload_plugins' });
  }

  /** Asks the core for its plugin_trust_prompt (every project plugin with its decision). */
  requestPluginTrust(): boolean {
    return this.sendPluginCommand({ type: 'plugin_trust_prompt' });
  }

  /** plugin_trust_decisions keyed by plugin path. */
  trustPlugins(decisions: Record<string, string>): boolean {
    return this.sendPluginCommand(trustDecisionsCommand(decisions));
  }

  installPlugin(path: string, scope: InstallScope): boolean {
    return this.sendPluginCommand(installPluginCommand(path, scope));
  }

  pluginAction(action: PluginAction, name: string): boolean {
    return this.sendPluginCommand(pluginActionCommand(action, name));
  }

  /** `/plugin <command> args`, or a plugin's own `/command args`. */
  pluginCommand(name: string, args = ''): boolean {
    return this.sendPluginCommand(runPluginCommand(name, args));
  }

  private sendPluginCommand(cmd: Parameters<CoreSupervisor['send']>[0] | string): boolean {
    if (typeof cmd === 'string') return this.refuse(cmd);
    if (!this.requirePlugins() || !this.requireReady()) return false;
    return this.core.send(cmd);
  }

  /** `/skills`: the core's skills, shown as a notice when they arrive. */
  listSkills(): boolean {
    if (!this.requireReady() || !this.requireSkills()) return false;
    this.reportsRequested.add('skills');
    return this.core.send({ type: 'list_skills' });
  }

  /** The core's skills for a picker, once its next `skills` answer is in the state; undefined if it cannot say. */
  fetchSkills(): Promise<SkillView[] | undefined> {
    if (!this.requireReady() || !this.requireSkills()) return Promise.resolve(undefined);
    return this.nextAnswer({ type: 'list_skills' }, ['skills']).then((e) => (e ? (this.state.skills ?? []) : undefined));
  }

  /** `apply_skill` on the selected model, queued like a prompt; the core builds the prompt from the skill's file. */
  applySkill(name: string, task = ''): boolean {
    const skill = typeof name === 'string' ? name.trim() : '';
    const text = typeof task === 'string' ? task.trim() : '';
    if (!skill) return this.refuse('Name the skill to apply: /skill:<name> [task].');
    const shown = shownSkillPrompt(skill, text);
    if (!this.requireReady() || !this.requireSkills() || !this.withinPromptLimit(shown)) return false;
    const model = this.state.model;
    if (!model) return this.refuse('No model is available: log in to a provider or add one.', 'login', 'error');
    if (this.state.run.status !== 'idle' && this.state.run.queued !== undefined) {
      return this.refuse('A prompt is already queued. Wait for this turn, steer it, or clear the queue.');
    }
    this.store.dispatch({ type: 'client:prompt', text: shown, images: 0 });
    const cmd: CommandOf<'apply_skill'> = { type: 'apply_skill', name: skill, model, reasoning_effort: this.state.reasoningEffort };
    if (text) cmd.task = text;
    return this.core.send(cmd);
  }

  /** One marketplace command and the core's answer to it; undefined when the core cannot answer (not ready, stopped). */
  skillMarketplace(cmd: SkillMarketplaceCommand, answers: readonly string[]): Promise<WireEvent | undefined> {
    if (!isMarketplaceCommand(cmd)) return Promise.resolve(undefined);
    if (!this.requireReady() || !this.requireSkills()) return Promise.resolve(undefined);
    return this.nextAnswer(cmd, answers);
  }

  /** Sends `cmd` and resolves with the next event of one of the `answers` types, or undefined once the core stops. */
  private nextAnswer(
    cmd:
      | CommandOf<
          | 'list_skills'
          | 'list_memory'
          | 'forget_memory'
          | 'list_approval_escalations'
          | 'clear_approval_escalations'
          | 'get_vision_config'
          | 'set_vision_config'
        >
      | SkillMarketplaceCommand,
    answers: readonly string[],
  ): Promise<WireEvent | undefined> {
    return new Promise((resolve) => {
      const done = (e: WireEvent | undefined) => {
        events.dispose();
        status.dispose();
        resolve(e);
      };
      const events = this.onEvent((e) => answers.includes(e.type) && done(e));
      const status = this.onDidChange((s) => s.core.status !== 'ready' && done(undefined));
      if (!this.core.send(cmd)) done(undefined);
    });
  }

  /** The password goes to the core only: never into the state, a notice or the log. */
  sudoReply(requestId: string, approved: boolean, password?: string): boolean {
    if (!this.isPending('sudo', requestId)) return this.refuse('That sudo request is no longer pending.');
    if (!this.requireReady()) return false;
    this.store.dispatch({ type: 'client:sudo_answered', requestId, approved });
    const cmd: CommandOf<'sudo_reply'> = { type: 'sudo_reply', request_id: requestId, approved };
    if (approved && typeof password === 'string') cmd.password = password;
    return this.core.send(cmd);
  }

  setModel(model: string): boolean {
    if (!this.state.models.some((m) => m.id === model)) return this.refuse(`Unknown model: ${model}. Pick one from the model list.`);
    this.store.dispatch({ type: 'client:model_selected', model });
    return true;
  }

  setReasoning(effort: string): boolean {
    const value = typeof effort === 'string' ? effort.trim() : '';
    if (!value || value.length > 50) return this.refuse('Give a reasoning effort such as low, medium or high.');
    const levels = this.state.models.find((m) => m.id === this.state.model)?.thinkingLevels;
    if (levels?.length && !levels.includes(value)) return this.refuse(`This model's reasoning efforts are: ${levels.join(', ')}.`);
    this.store.dispatch({ type: 'client:reasoning_selected', effort: value });
    return true;
  }

  setApprovalMode(mode: ApprovalMode): boolean {
    if (!isApprovalMode(mode)) return this.refuse('The approval mode is one of: never, destructive, always.');
    if (this.o.launch.kind === 'scv') {
      return this.refuse(
        "SCV's approval policy is fixed when the server starts: set catalystCode.scv.approvalPolicy and restart the core.",
      );
    }
    if (!this.requireReady()) return false;
    this.store.dispatch({ type: 'client:approval_mode_selected', mode });
    return this.core.send({ type: 'set_approval', mode });
  }

  /** A core without sessions (SCV) starts over by clearing its one conversation instead. */
  newSession(): boolean {
    if (!this.requireReady()) return false;
    if (!this.can(UI_CAPABILITIES.sessions)) return this.core.send({ type: 'clear' });
    return this.core.send({ type: 'new_session', path: timestampedSessionName() });
  }

  loadSession(path: string): boolean {
    if (typeof path !== 'string' || !path) return this.refuse('No session was given.');
    return this.requireReady() && this.core.send({ type: 'load_session', path });
  }

  renameSession(path: string, title: string): boolean {
    return this.requireReady() && this.core.send({ type: 'rename_session', path, title: String(title).trim().slice(0, 200) });
  }

  pinSession(path: string, pinned: boolean): boolean {
    return this.requireReady() && this.core.send({ type: 'pin_session', path, pinned });
  }

  deleteSession(path: string): boolean {
    if (path === this.core.sessionFile) return this.refuse('This is the open session; switch to another one before deleting it.');
    return this.requireReady() && this.core.send({ type: 'delete_session', path });
  }

  listSessions(): boolean {
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.sessions, 'sessions') && this.core.send({ type: 'list_sessions' });
  }

  undo(): boolean {
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.undo, 'undo') && this.core.send({ type: 'undo' });
  }

  compact(instructions?: string): boolean {
    const cmd: CommandOf<'compact'> = { type: 'compact' };
    if (instructions?.trim()) cmd.instructions = instructions.trim();
    return this.requireReady() && this.core.send(cmd);
  }

  clear(): boolean {
    return this.requireReady() && this.core.send({ type: 'clear' });
  }

  reset(): boolean {
    return this.requireReady() && this.core.send({ type: 'reset' });
  }

  saveMemory(text: string): boolean {
    if (!text.trim()) return this.refuse('/memory needs the note to save.');
    return this.requireReady() && this.core.send({ type: 'save_memory', text: text.trim() });
  }

  /** The core's durable notes (its next `memory_list` answer), undefined when it cannot say. */
  fetchMemory(): Promise<MemoryView[] | undefined> {
    if (!this.requireReady()) return Promise.resolve(undefined);
    return this.nextAnswer({ type: 'list_memory' }, ['memory_list']).then((e) =>
      e?.type === 'memory_list' ? memoryEntries(e.entries) : undefined,
    );
  }

  /** `forget_memory`; resolves with the core's answer (memory_saved's message), undefined when it cannot answer. */
  forgetMemory(id: string): Promise<string | undefined> {
    if (typeof id !== 'string' || !id) return Promise.resolve(undefined);
    if (!this.requireReady()) return Promise.resolve(undefined);
    return this.nextAnswer({ type: 'forget_memory', id }, ['memory_saved']).then((e) =>
      e?.type === 'memory_saved' ? (str(e.message) ?? '') : undefined,
    );
  }

  /** `get_vision_config`: the vision hand-off settings and every model's sight; undefined when the core cannot answer. */
  fetchVisionConfig(): Promise<VisionSettings | undefined> {
    if (!this.requireReady()) return Promise.resolve(undefined);
    return this.nextAnswer({ type: 'get_vision_config' }, ['vision_config']).then((e) => (e ? visionSettingsOf(e) : undefined));
  }

  /** `set_vision_config` (replaces the whole config); resolves with the saved settings, or the core's error text. */
  saveVisionConfig(settings: Omit<VisionSettings, 'models'>): Promise<VisionSettings | string | undefined> {
    if (!this.requireReady()) return Promise.resolve(undefined);
    return this.nextAnswer(setVisionConfigCommand(settings), ['vision_config', 'error']).then((e) =>
      e?.type === 'error' ? (str(e.message) ?? 'the vision settings were not saved') : e ? visionSettingsOf(e) : undefined,
    );
  }

  /**
   * A setting the core changes while running (`set_config`: bash timeout, auto-compact), instead of a restart. It is
   * kept and sent again to each core this controller starts later (a crash restart launches with the old flags), and
   * sent once the core is ready if it is not yet. Returns whether it went to a running core now.
   */
  setRuntimeConfig(config: LiveConfig): boolean {
    this.liveConfig.set(config.key, config.value);
    if (this.state.core.status !== 'ready') return false;
    return this.core.send({ type: 'set_config', key: config.key, value: config.value });
  }

  private resendLiveConfigOnReady(): void {
    let wasReady = false;
    this.store.onDidChange((s) => {
      const ready = s.core.status === 'ready';
      if (ready && !wasReady) for (const [key, value] of this.liveConfig) this.core.send({ type: 'set_config', key, value });
      wasReady = ready;
    });
  }

  /** `refresh_memory`: the core rereads its notes from disk (edited by hand or by another core). */
  refreshMemory(): boolean {
    return this.requireReady() && this.core.send({ type: 'refresh_memory' });
  }

  /**
   * The session's escalations for the approval-mode picker: our core's list (`list_approval_escalations`, or
   * `clear_approval_escalations` first with `clear`); another core's are those the state saw happen. Undefined when
   * the core cannot answer.
   */
  approvalEscalations(clear = false): Promise<ApprovalEscalations | undefined> {
    if (!this.can(UI_CAPABILITIES.approvalEscalations)) {
      if (clear) this.refuse('This core cannot clear escalations: start a new session, or restart the core for the allow rules.');
      return Promise.resolve(clear ? undefined : (this.state.approvalEscalations ?? { kinds: [], patterns: [] }));
    }
    if (!this.requireReady()) return Promise.resolve(undefined);
    const cmd = { type: clear ? 'clear_approval_escalations' : 'list_approval_escalations' } as const;
    return this.nextAnswer(cmd, ['approval_escalations']).then((e) => (e ? this.state.approvalEscalations : undefined));
  }

  /** `runtime_status`: the core's active run, pending prompts and cancellable resources (for the stats view). */
  runtimeStatus(): boolean {
    return this.requireReady() && this.core.send({ type: 'runtime_status' });
  }

  /** `!cmd` / `!!cmd`: the core runs the user's own command in the workspace (no approval) and answers bash_execution. */
  userBash(command: string, excludeFromContext = false): boolean {
    const text = typeof command === 'string' ? command.trim() : '';
    if (!text) return this.refuse('Type a shell command after ! (or !! to keep its output out of the context).');
    if (!this.requireReady()) return false;
    if (!this.can(UI_CAPABILITIES.userBash)) return this.refuse('An SCV server does not run shell commands typed in the chat.');
    // Both cores refuse user_bash during a run; saying so here keeps the text's fate clear.
    if (this.state.run.status !== 'idle') return this.refuse('A turn is running: run the shell command after it finishes.');
    const cmd: CommandOf<'user_bash'> = { type: 'user_bash', command: text };
    if (excludeFromContext) cmd.exclude_from_context = true;
    return this.core.send(cmd);
  }

  /** Asks the core for usage figures; with `report` the answer is also shown as a notice (the /stats command). */
  stats(report = true): boolean {
    if (!this.requireReady()) return false;
    if (report) this.reportsRequested.add('stats');
    return this.core.send({ type: 'stats' });
  }

  context(report = true): boolean {
    if (!this.requireReady()) return false;
    if (report) this.reportsRequested.add('context_breakdown');
    return this.core.send({ type: 'context' });
  }

  createCheckpoint(label?: string): boolean {
    const cmd: CommandOf<'create_checkpoint'> = { type: 'create_checkpoint' };
    if (label?.trim()) cmd.label = label.trim();
    return this.requireReady() && this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') && this.core.send(cmd);
  }

  /** With `paths` (a core with `checkpoint_files`), only those files; a path the checkpoint lacks is removed. */
  restoreCheckpoint(id: string, paths?: readonly string[]): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    if (paths === undefined) {
      return (
        this.requireReady() &&
        this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') &&
        this.core.send({ type: 'restore_checkpoint', id })
      );
    }
    const valid = checkpointPaths(paths);
    if (!valid) return this.refuse('Restore needs workspace-relative file paths.');
    return (
      this.requireReady() &&
      this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'restoring single files of a checkpoint') &&
      this.core.send({ type: 'restore_checkpoint', id, paths: valid })
    );
  }

  deleteCheckpoint(id: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    return (
      this.requireReady() &&
      this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'deleting checkpoints') &&
      this.core.send({ type: 'delete_checkpoint', id })
    );
  }

  /** Asks how the working tree differs from the checkpoint → `checkpoint_changes{id, files}`. */
  checkpointChanges(id: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    return (
      this.requireReady() &&
      this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'comparing checkpoints') &&
      this.core.send({ type: 'checkpoint_changes', id })
    );
  }

  /** Asks for one file's content at the checkpoint → `checkpoint_file{id, path, exists, content?}`. */
  checkpointFile(id: string, path: string): boolean {
    if (!isCheckpointId(id)) return this.refuse('No checkpoint was given.');
    const rel = safeRelativePath(path);
    if (!rel) return this.refuse('A checkpoint file is named by a workspace-relative path.');
    return (
      this.requireReady() &&
      this.requireCapability(UI_CAPABILITIES.checkpointFiles, 'comparing checkpoints') &&
      this.core.send({ type: 'checkpoint_file', id, path: rel })
    );
  }

  listCheckpoints(): boolean {
    return (
      this.requireReady() &&
      this.requireCapability(UI_CAPABILITIES.checkpoints, 'checkpoints') &&
      this.core.send({ type: 'list_checkpoints' })
    );
  }

  /** A key for this core process only (never persisted by the core); the caller keeps it in SecretStorage. */
  /**
   * A web-search key ("" clears it) for this core process only: sent only to a core that keeps it in memory
   * (`runtime_search_keys`); upstream's core would write it to config.json. `quiet`: no warning when the core lacks it.
   */
  setSearchKey(provider: SearchProvider, key: string, quiet = false): boolean {
    if (this.state.core.status !== 'ready') return false;
    if (quiet && !this.capabilities().has(UI_CAPABILITIES.runtimeSearchKeys)) return false;
    return (
      this.requireCapability(UI_CAPABILITIES.runtimeSearchKeys, 'web search keys') &&
      this.core.send({ type: 'set_search_key', provider, api_key: key.trim() })
    );
  }

  setKey(provider: string, key: string): boolean {
    if (typeof key !== 'string' || !key.trim()) return this.refuse('The API key is empty.');
    const cmd: CommandOf<'set_key'> = { type: 'set_key', api_key: key.trim() };
    if (provider) cmd.provider = provider;
    return this.requireReady() && this.core.send(cmd);
  }

  /** Registers an endpoint without a key: keys go through `setKey`, so the core never writes them to config.json. */
  addCustomProvider(spec: CustomProviderSpec): boolean {
    const name = spec.name?.trim();
    if (!name) return this.refuse('The provider needs a name.');
    if (!isHttpUrl(spec.baseUrl)) return this.refuse('The base URL must be an http:// or https:// URL.');
    const cmd: CommandOf<'add_custom_provider'> = { type: 'add_custom_provider', name, base_url: spec.baseUrl.trim(), kind: spec.kind };
    if (spec.headers) cmd.headers = spec.headers;
    if (spec.keyFollows) cmd.key_follows = true;
    return this.requireReady() && this.core.send(cmd);
  }

  logout(provider: string): boolean {
    if (!provider) return this.refuse('No provider was given.');
    return this.requireReady() && this.core.send({ type: 'logout', provider });
  }

  /** `login_oauth`: the core answers with oauth_prompt (or an error) and ends with its success or failure texts. */
  loginOauth(preset: string): boolean {
    if (!preset) return this.refuse('No provider was given.');
    return this.requireReady() && this.core.send({ type: 'login_oauth', preset });
  }

  /** `oauth_code`: the code (or callback URL) the user pasted for a pending OAuth login. */
  oauthCode(code: string): boolean {
    const trimmed = code.trim();
    if (!trimmed) return this.refuse('Paste the code the login page showed.');
    return this.requireReady() && this.core.send({ type: 'oauth_code', code: trimmed });
  }

  refreshModels(): boolean {
    return this.requireReady() && this.core.send({ type: 'refresh_models' });
  }

  /** `set_provider`: the core makes `name` its active provider and lists its models first. */
  setProvider(name: string): boolean {
    if (typeof name !== 'string' || !name) return this.refuse('No provider was given.');
    return this.requireReady() && this.core.send({ type: 'set_provider', name });
  }

  /** `usage`: the plan and rate-limit windows of the provider serving `model` (default: the last used); answered by `usage`. */
  usage(model?: string): boolean {
    // SCV reports no provider usage: nothing is sent, and the caller says so (Show Stats leaves the section out).
    if (this.o.launch.kind === 'scv') return false;
    const cmd: CommandOf<'usage'> = { type: 'usage' };
    if (model) cmd.model = model;
    return this.requireReady() && this.core.send(cmd);
  }

  runSlash(name: string, args: string): boolean {
    return runSlashCommand(this, name, args);
  }

  notify(level: 'info' | 'warning' | 'error', text: string): boolean {
    this.notice(level, text);
    return false;
  }

  // ── Helpers ────────────────────────────────────────────────────────────────

  private requireReady(): boolean {
    if (this.core.channel && this.state.core.status === 'ready') return true;
    const status = this.state.core.status;
    if (status === 'starting' || status === 'restarting') this.notice('info', 'The core is starting; try again in a moment.');
    else this.notice('warning', 'The core is not running.', 'restartCore');
    return false;
  }

  private requireSubagents(): boolean {
    if (this.can(UI_CAPABILITIES.subagents)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} does not support subagents.`);
    return false;
  }

  private requireSkills(): boolean {
    if (this.can(UI_CAPABILITIES.skills)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} does not support skills.`);
    return false;
  }

  private requireGoal(): boolean {
    if (this.can(UI_CAPABILITIES.goal)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} has no goal mode.`);
    return false;
  }

  private requirePlugins(): boolean {
    if (this.can(UI_CAPABILITIES.plugins)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} has no plugins.`);
    return false;
  }

  private requireCapability(capability: string, what: string): boolean {
    if (this.capabilities().has(capability)) return true;
    this.notice('warning', `${this.o.launch.kind === 'scv' ? 'An SCV server' : 'This core'} does not support ${what}.`);
    return false;
  }

  /** The same rule as the chat's (src/shared/coreCapabilities), for what the controller itself asks the core. */
  private can(capability: UiCapability): boolean {
    return supports(this.state, capability);
  }

  /** Refuses, before anything is shown, a prompt larger than the server accepts (UTF-8 bytes). */
  private withinPromptLimit(text: string): boolean {
    const max = this.core.channel?.limits?.maxPromptBytes;
    if (max === undefined) return true;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= max) return true;
    const who = this.o.launch.kind === 'scv' ? 'the SCV server' : 'the core';
    return this.refuse(
      `This prompt is ${bytes.toLocaleString('en-US')} bytes (UTF-8); ${who} accepts at most ${max.toLocaleString('en-US')} (${kib(max)} KiB). Shorten it, or put the text in a file and mention the file.`,
    );
  }

  /** The server's queue control, when the core has one; tells the user otherwise. */
  private serverQueue(): ServerQueueControl | undefined {
    if (!this.requireReady()) return undefined;
    const queue = this.core.channel?.serverQueue;
    if (queue && this.capabilities().has(UI_CAPABILITIES.serverQueue)) return queue;
    this.refuse('This core has no editable queue.');
    return undefined;
  }

  /** As serverQueue(), and `id` must still be waiting in it. */
  private queueFor(id: string): ServerQueueControl | undefined {
    const queue = this.serverQueue();
    if (!queue) return undefined;
    if (typeof id === 'string' && this.isQueued(id)) return queue;
    this.refuse('That prompt is no longer queued.');
    return undefined;
  }

  private isQueued(id: string): boolean {
    return this.state.serverQueue?.entries.some((entry) => entry.id === id) ?? false;
  }

  private isPending(kind: 'ask' | 'sudo' | 'intercom', id: string): boolean {
    return this.state.items.some((i) => i.kind === kind && i.id === id && i.state === 'pending');
  }

  private providerOf(model: string): { provider?: string } {
    const provider = this.state.models.find((m) => m.id === model)?.provider;
    return provider ? { provider } : {};
  }

  private refuse(text: string, action?: NoticeItem['action'], level: NoticeItem['level'] = 'warning'): false {
    this.notice(level, text, action);
    return false;
  }

  private notice(level: NoticeItem['level'], text: string, action?: NoticeItem['action']): void {
    this.store.notice(level, text, action);
  }
}

/** The wording upstream's web client sends for `/run` (research catcode-agents §1.9). */
export function subagentPrompt(agent: string, task: string): string {
  return `Run the subagent tool: agent="${agent}", task="${task}". Return its result.`;
}

function agentInfos(raw: unknown): AgentInfo[] {
  return records<AgentInfo>(raw).flatMap((a) => {
    const name = str(a.name);
    if (!name) return [];
    const info: AgentInfo = { name };
    const description = str(a.description);
    const source = str(a.source);
    if (description) info.description = description;
    if (source) info.source = source;
    return [info];
  });
}

function agentsReport(agents: readonly AgentInfo[]): string {
  if (agents.length === 0) return 'This core has no agents.';
  const lines = agents.map((a) => `${a.name}${a.source ? ` (${a.source})` : ''}${a.description ? ` — ${a.description}` : ''}`);
  return ['Agents:', ...lines].join('\n');
}

/** The log sink must never break the session. */
function guardedLog(sink: ((line: string) => void) | undefined): (line: string) => void {
  return (line) => {
    try {
      sink?.(line);
    } catch {
      // dropped: a failing output channel is not the session's problem
    }
  };
}

/** Every path workspace-relative (normalized), at least one, at most 10 000; undefined otherwise. */
function checkpointPaths(paths: unknown): string[] | undefined {
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > 10_000) return undefined;
  const out = paths.map(safeRelativePath);
  return out.every((p): p is string => p !== undefined) ? out : undefined;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function kib(bytes: number): string {
  return String(Math.round((bytes / 1024) * 10) / 10);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
