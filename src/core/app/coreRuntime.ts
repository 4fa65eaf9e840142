import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { clientAcceptsEvent } from '../../protocol';
import { ApprovalBroker } from '../approvals/approvalBroker';
import { Escalations } from '../approvals/escalations';
import { PermissionRules } from '../approvals/permissionRules';
import type { CoreConfig } from '../config/config';
import { CheckpointManager } from '../checkpoints/checkpointManager';
import { Conversation } from '../agent/conversation';
import { Interactions } from '../agent/interactions';
import { buildSystemPrompt } from '../agent/systemPrompt';
import type { ChildEnv, ModelRoute } from '../subagents/childRunner';
import { SubagentRegistry } from '../subagents/subagentRegistry';
import type { ApprovalState } from '../agent/toolGate';
import { agentDirs, discoverAgents } from '../agents/discovery';
import { discoverSkills, skillDirs, type Skill } from '../skills/discovery';
import { skillManifest, subagentSkillsBlock } from '../skills/skillPrompts';
import { IntercomBus } from '../intercom/intercomBus';
import { ProjectRules } from '../rules/projectRules';
import { sweepWorktrees } from '../worktrees/worktree';
import { UsageTracker } from '../agent/usageTracker';
import { PriceBook } from '../pricing/priceBook';
import type { ModelPrice } from '../pricing/modelPrice';
import { MemoryStore } from '../memory/memoryStore';
import { CorePlugins } from '../plugins/corePlugins';
import { ProviderRegistry } from '../models/providerRegistry';
import type { GoalController } from '../goal/goalController';
import { EventSink, type EventFields, type RunEvent, type SessionEvent } from '../runtime/eventSink';
import { newSessionId } from '../runtime/ids';
import { scrubText } from '../runtime/redact';
import { RunCoordinator } from '../runtime/runCoordinator';
import type { ChildScope } from '../runtime/childScope';
import type { RunScope } from '../runtime/runScope';
import { fnv1a64Hex, sessionsDirFor } from '../sessions/sessionPaths';
import { checkpointIndexPathFor } from '../sessions/sessionIndex';
import type { LoadedSession } from '../sessions/sessionFile';
import { readSessionStats, writeSessionStats } from '../sessions/sessionStats';
import type { PresenceRecord } from '../tools/presenceRecords';
import type { ToolRegistry } from '../tools/registry';
import { coreTools, toolRulesMatchPaths } from './allTools';
import type { TodoItem, ToolContext } from '../tools/types';
import { WEB_TOOLS, WebAccess } from '../web/webAccess';
import type { LoadedTools } from '../tools/loadedTools';

/** Everything one core process holds: configuration, the session, providers, approvals, runs and stores. */
export class CoreRuntime {
  readonly sink: EventSink;
  readonly workspace: string;
  sessionId = newSessionId();
  /**
   * What the client announced in `init.client.capabilities` (empty before init): our own event types go only to a
   * client that announced their capability (EXTENSION_EVENT_CAPABILITIES), and our own commands are answered only then.
   */
  clientCapabilities: ReadonlySet<string> = new Set();
  conversation: Conversation;
  loadedAtStart: LoadedSession | undefined;
  readonly providers: ProviderRegistry;
  readonly approvals: ApprovalState;
  readonly interactions = new Interactions();
  readonly runs = new RunCoordinator();
  /** The live subagent runs of this session: the cancellation tree. */
  readonly subagents = new SubagentRegistry();
  /** Subagents' messages to the orchestrator (the user) and to each other. */
  readonly intercom: IntercomBus;
  /** Model prices: models.dev's snapshot, refreshed with the models (pricing/refreshPrices.ts), and models_override. */
  readonly prices = new PriceBook();
  usage: UsageTracker;
  todos: TodoItem[] = [];
  private readonly todosOfChildren = new WeakMap<ChildScope, TodoItem[]>();
  /** The deferred tools this session enabled with load_tools. */
  readonly loadedTools: LoadedTools;
  /** This core's own tools, by name. */
  readonly builtIns: ToolRegistry = coreTools;
  /** fetch and web_search: their policy, limits and the search keys (set_search_key keeps a key here, in memory only). */
  readonly web: WebAccess;
  readonly memory: MemoryStore;
  /** The project rules files in the system prompt, as last refreshed (before each turn, on init and `context`). */
  readonly rules: ProjectRules;
  checkpoints: CheckpointManager;
  /** Global and trusted workspace plugins: their tools, slash commands and hooks. */
  readonly plugins: CorePlugins;
  /** The session's goal (goal mode): undo, reset, new_session and load_session clear it. */
  readonly goal: GoalController;
  lastModel: string | undefined;
  lastEffort: string | undefined;
  compactions = 0;
  /** Sudo passwords given during this process: never stored, only kept so that a later echo of one is scrubbed too. */
  private readonly sudoPasswords = new Set<string>();
  /** Writes to the core's log (stderr), scrubbed of the live secrets. */
  readonly log: (message: string) => void;

  constructor(
    readonly config: CoreConfig,
    readonly env: NodeJS.ProcessEnv,
    write: (line: string) => void,
    log: (message: string) => void,
    onEmit: ((event: EventFields) => void) | undefined,
    makeGoal: (rt: CoreRuntime) => GoalController,
  ) {
    this.log = (message) => log(scrubText(message, this.secrets()));
    this.workspace = realpathSync(config.workspace);
    this.sink = new EventSink(
      write,
      () => this.sessionId,
      onEmit,
      () => this.secrets(),
      (type) => clientAcceptsEvent(type, this.clientCapabilities),
    );
    this.providers = new ProviderRegistry(config, env);
    this.web = new WebAccess(config, env);
    this.loadedTools = this.builtIns.newLoadedTools(this.web.enabled ? [] : WEB_TOOLS);
    const opened = Conversation.open(config.sessionFile, { secrets: () => this.secrets() });
    this.conversation = opened.conversation;
    this.loadedAtStart = opened.loaded;
    this.usage = this.newUsage(this.conversation.path);
    this.approvals = {
      mode: config.approval,
      rules: new PermissionRules(config.permissions, toolRulesMatchPaths),
      escalations: new Escalations(config.sessionFile ? `${config.sessionFile}.escalations` : undefined),
      broker: new ApprovalBroker({
        timeoutMs: approvalTimeoutMs(env),
        onExpired: (p) => this.emit({ type: 'approval_expired', request_id: p.requestId, tool_call_id: p.toolCallId }),
      }),
    };
    this.memory = new MemoryStore({
      workspace: join(this.workspace, '.catalyst-code', 'memory'),
      global: join(config.homeDir, '.catalyst-code', 'memory'),
    });
    this.rules = new ProjectRules(this.workspace, config.projectRules);
    this.plugins = new CorePlugins({
      homeDir: config.homeDir,
      configDir: config.configDir,
      workspace: this.workspace,
      trustProject: config.trustProjectPlugins,
      workspacePluginsDir: config.plugins.dir,
      disabledAtStart: config.plugins.disabled,
      builtIns: this.builtIns,
      env,
      log: this.log,
      emit: (event) => this.emit(event),
      sessionFile: () => this.conversation.path,
    });
    this.plugins.manager.scan();
    this.providers.oauth = this.plugins.oauth;
    this.checkpoints = this.makeCheckpoints();
    this.intercom = new IntercomBus({
      toOrchestrator: (e) =>
        this.emit({ type: 'intercom_message', id: e.id, from: e.from, to: e.to, reason: e.reason, message: e.message }),
      timeoutMs: intercomTimeoutMs(env),
    });
    // Leftovers of a core killed half-way are swept now, ahead of every checkpoint operation and off init's path.
    void this.checkpoints.recover();
    // So are the children's worktrees and branches it left (worktrees share one lock, so a new child waits for this).
    void sweepWorktrees(this.workspace);
    this.goal = makeGoal(this);
  }

  emit(event: SessionEvent): void {
    this.sink.emit(event);
  }

  emitInRun(scope: RunScope, event: RunEvent): void {
    this.sink.emitInRun(scope, event);
  }

  /** The directory of this workspace's sessions (shared with the upstream TUI and web). */
  get sessionsDir(): string {
    // Hashed as given (absolute, not symlink-resolved), like upstream's filepath.Abs, so both find the same sessions.
    return sessionsDirFor(this.config.configDir, this.config.workspace);
  }

  /** The main agent's prompt lists the skills; a child's base prompt (`forChild`) does not (upstream's `with_skill`). */
  systemPrompt(forChild = false): string {
    return buildSystemPrompt({
      workspace: this.workspace,
      approvalMode: this.approvals.mode,
      memories: this.memory.list().map((m) => m.text),
      skillManifest: forChild ? undefined : skillManifest(this.skills()),
      projectRules: this.rules.current().prompt,
      pluginContext: forChild ? undefined : this.plugins.promptBlock(),
    });
  }

  /** Read from disk each time, like the agents: a skill added while the core runs counts from the next request. */
  skills(): Skill[] {
    return discoverSkills(skillDirs(this.config.homeDir, this.workspace));
  }

  toolContext(scope: RunScope, editedContent?: string): ToolContext {
    return {
      workspace: this.workspace,
      signal: scope.signal,
      bashTimeoutSecs: this.config.bashTimeoutSecs,
      maxBashTimeoutSecs: this.config.maxBashTimeoutSecs,
      diagTimeoutSecs: this.config.diagTimeoutSecs,
      shell: this.config.shell,
      requestSudo: async (command) => {
        const answer = await this.interactions.sudo(scope.runId, scope.signal, (id) =>
          this.emitInRun(scope, { type: 'sudo_request', request_id: id, command }),
        );
        if (answer.password) this.sudoPasswords.add(answer.password);
        return answer;
      },
      ask: (questions) =>
        this.interactions.ask(
          scope.runId,
          scope.signal,
          (id) => this.emitInRun(scope, { type: 'ask_request', request_id: id, questions }),
          questions,
        ),
      todos: { get: () => this.todos, set: (items) => (this.todos = items) },
      loadedTools: this.loadedTools,
      memory: this.memory,
      presenceDir: this.presenceDir,
      web: this.web,
      depth: 0,
      editedContent,
    };
  }

  /**
   * A child agent's tool context: its own signal, workspace (a worktree root confines it there) and todo list; no sudo,
   * and no `ask` (upstream's children cannot ask the user: they contact their supervisor).
   */
  childToolContext(child: ChildScope, workspace: string | undefined, editedContent?: string): ToolContext {
    return {
      ...this.toolContext(child.root, editedContent),
      workspace: workspace ?? this.workspace,
      signal: child.signal,
      depth: child.depth,
      requestSudo: async () => ({ approved: false }),
      todos: this.childTodos(child),
      ask: async () => {
        throw new Error('ask is not available to a subagent; use contact_supervisor to ask your supervisor');
      },
    };
  }

  /** A child's own todo list: its todo_write must not replace the main agent's. */
  private childTodos(child: ChildScope): ToolContext['todos'] {
    let items = this.todosOfChildren.get(child);
    if (!items) this.todosOfChildren.set(child, (items = []));
    const list = items;
    return { get: () => list, set: (next) => list.splice(0, list.length, ...next) };
  }

  /** What the children of a turn on `parentModel` need of this core. */
  childEnv(parentModel: ModelRoute): ChildEnv {
    return {
      sink: this.sink,
      registry: this.subagents,
      approvals: this.approvals,
      usage: () => this.usage,
      secrets: () => this.secrets(),
      idleTimeoutMs: this.config.idleTimeoutSecs * 1000,
      settings: this.config.subagents,
      agents: () => discoverAgents(agentDirs(this.config.homeDir, this.workspace), this.config.subagents),
      parentModel,
      route: (model) => {
        const name = this.providers.providerForModel(model);
        const provider = name ? this.providers.resolve(name) : undefined;
        return provider ? { model, provider, modelInfo: this.providers.modelInfo(model, name) } : undefined;
      },
      basePrompt: () => this.systemPrompt(true),
      skillsBlock: (names) => subagentSkillsBlock(this.skills(), names),
      parentMessages: () => this.conversation.all,
      toolContext: (child, workspace, edited) => this.childToolContext(child, workspace, edited),
      refuseTool: (name) => this.refuseTool(name),
      builtIns: this.builtIns,
      plugins: this.plugins.gate(),
      // A child that outlives its session (reset, load_session) must not write into the next one.
      recordRun: (record) => {
        if (record.session_id === this.sessionId) this.conversation.recordRun(record);
      },
      intercom: this.intercom,
      autoCompact: this.config.autoCompact,
      compactInstructions: this.config.compactInstructions,
    };
  }

  /** The price of `model` as `provider` (a configured provider's name) bills it; undefined when unknown. */
  priceOf(provider: string, model: string): ModelPrice | undefined {
    const p = this.providers.find(provider);
    return p ? this.prices.priceFor(p, model) : undefined;
  }

  /** The session's usage, going on from the figures its `.stats` sidecar saved (a reload or a restart keeps them). */
  private newUsage(sessionFile: string | undefined): UsageTracker {
    const saved = sessionFile ? readSessionStats(sessionFile) : undefined;
    return new UsageTracker(
      (provider, model) => this.priceOf(provider, model),
      saved,
      () => this.saveUsage(),
    );
  }

  /** Saves the session's figures beside its file (`<session>.stats`); a failed write only logs: the turn stands. */
  saveUsage(): void {
    const path = this.conversation.path;
    if (!path) return;
    try {
      writeSessionStats(path, this.usage.figures());
    } catch (err) {
      this.log(`saving ${path}.stats failed: ${(err as Error).message}`);
    }
  }

  /** Upstream fails closed when its sandbox cannot run; this core has no sandbox, so it refuses bash when one is requested. */
  refuseTool(name: string): string | undefined {
    if (name === 'bash' && this.config.sandbox !== 'none') {
      return `bash refused: sandbox '${this.config.sandbox}' was requested but this core runs commands only on the host (use --sandbox none)`;
    }
    return this.web.refusal(name);
  }

  /** Switches to another session file: new session id, new conversation, new checkpoint index and escalations. */
  switchSession(path: string | undefined): LoadedSession | undefined {
    // Open the new file first: if that fails, the current session stays open and keeps being written.
    const opened = Conversation.open(path, { secrets: () => this.secrets() });
    this.conversation.close();
    this.conversation = opened.conversation;
    this.config.sessionFile = path;
    this.sessionId = newSessionId();
    this.usage = this.newUsage(this.conversation.path);
    this.todos = [];
    this.loadedTools.clear();
    this.approvals.escalations = new Escalations(path ? `${path}.escalations` : undefined);
    this.checkpoints = this.makeCheckpoints();
    return opened.loaded;
  }

  /**
   * The live secrets, scrubbed from every event, log line and session file line (EventSink, Conversation): provider keys
   * (set_key, config, env), web-search keys (set_search_key, config, env), and sudo passwords given in this process.
   */
  secrets(): string[] {
    const keys = this.providers.knownSecrets();
    keys.push(...this.web.keys.secrets());
    for (const p of this.sudoPasswords) keys.push(p);
    return keys;
  }

  /** Where the sessions of this workspace publish their presence records (as upstream's cores do). */
  get presenceDir(): string {
    return join(this.config.configDir, 'presence', fnv1a64Hex(this.workspace));
  }

  /** This process's presence record: who it is; it keeps no goal or work state to publish. */
  presenceRecord(startedAt: number): PresenceRecord {
    const now = Math.floor(Date.now() / 1000);
    return {
      pid: process.pid,
      session_id: this.conversation.path ?? null,
      started_at: startedAt,
      last_heartbeat: now,
      goal: '',
      in_progress: [],
      next: [],
      recent_files: [],
      last_activity: '',
      model: this.lastModel ?? null,
    };
  }

  /**
   * This workspace's checkpoint storage outside the workspace: ~/.config/catalyst-code/checkpoints/<fnv1a64 of the
   * real workspace path>/ (the shadow repository of a non-git folder, stat caches, scratch).
   */
  get checkpointDataDir(): string {
    return join(this.config.configDir, 'checkpoints', fnv1a64Hex(this.workspace));
  }

  private makeCheckpoints(indexFor: string | undefined = this.config.sessionFile): CheckpointManager {
    const store = join(this.workspace, '.catalyst-code', 'checkpoints');
    const indexPath = indexFor ? checkpointIndexPathFor(indexFor) : join(store, 'index.jsonl');
    return new CheckpointManager({ workspace: this.workspace, indexPath, filesStoreDir: store, dataDir: this.checkpointDataDir });
  }

  /** Deletes every checkpoint (refs, and objects no longer needed by the shadow store) of a session being deleted. */
  async pruneSessionCheckpoints(sessionPath: string): Promise<number> {
    return this.makeCheckpoints(sessionPath).deleteAll();
  }
}

/** A blocking intercom ask times out after 5 minutes (upstream); CATALYST_CODE_INTERCOM_TIMEOUT_SECS overrides it for tests. */
function intercomTimeoutMs(env: NodeJS.ProcessEnv): number | undefined {
  const secs = Number(env.CATALYST_CODE_INTERCOM_TIMEOUT_SECS);
  return Number.isFinite(secs) && secs > 0 ? secs * 1000 : undefined;
}

/** Pending approvals expire after 15 minutes (upstream); CATALYST_CODE_APPROVAL_TIMEOUT_SECS overrides it. */
function approvalTimeoutMs(env: NodeJS.ProcessEnv): number | undefined {
  const secs = Number(env.CATALYST_CODE_APPROVAL_TIMEOUT_SECS);
  return Number.isFinite(secs) && secs > 0 ? secs * 1000 : undefined;
}
