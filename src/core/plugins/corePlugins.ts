/** What the core holds of its plugins: the manager, the tools and hooks they add, and where their messages go. */
import type { SessionEvent } from '../runtime/eventSink';
import type { ToolRegistry } from '../tools/registry';
import type { GatePlugins } from '../agent/gatePlugins';
import type { TurnTools } from '../tools/toolSet';
import type { ChatMessage } from '../providers/types';
import type { ToolDefinition } from '../tools/types';
import { hasToolHooks, runPostToolHooks, runPreToolHooks, type HookHost } from './hooks';
import { PluginManager, type PluginManagerOptions } from './pluginManager';
import { PluginOauth } from './pluginOauth';
import { pluginToolDefinition } from './pluginTool';
import {
  runAdvisoryHooks,
  runBeforeRequestHooks,
  runBeforeTurnHooks,
  runPreTurnHooks,
  type PreTurnChoice,
  type TurnInputHooks,
} from './turnHooks';

export interface CorePluginsOptions extends PluginManagerOptions {
  env: NodeJS.ProcessEnv;
  /** The core's own tools: a plugin tool of a built-in's name is skipped unless it overrides that one. */
  builtIns: Pick<ToolRegistry, 'get'>;
  emit(event: SessionEvent): void;
  /** The session file's path, when the session has one. */
  sessionFile(): string | undefined;
}

export class CorePlugins {
  readonly manager: PluginManager;
  /** The OAuth providers the plugins declare: login, request-time tokens, logout. */
  readonly oauth: PluginOauth;
  /** Colliding plugin tools already logged: the tools are listed on every model request. */
  private readonly collisionsLogged = new Set<string>();

  constructor(private readonly opts: CorePluginsOptions) {
    this.manager = new PluginManager(opts);
    this.oauth = new PluginOauth(this.manager, {
      env: opts.env,
      workspace: opts.workspace,
      configDir: opts.configDir,
      homeDir: opts.homeDir,
      log: opts.log,
    });
  }

  /** upstream's `emit_plugin_ui_side_effects`: `notify` → `info "[plugin] …"`, `status` → `plugin_status` ("" clears it). */
  notify(plugin: string, notify: string | undefined, status: string | undefined): void {
    if (notify) this.opts.emit({ type: 'info', message: `[${plugin}] ${notify}` });
    if (status !== undefined) this.opts.emit({ type: 'plugin_status', plugin, text: status });
  }

  /**
   * The enabled plugins' tools the main agent gets: a name taken by an earlier plugin tool, or by a built-in the tool does
   * not override (`override: true`), is skipped (research A §7.5).
   */
  tools(): ToolDefinition[] {
    const out: ToolDefinition[] = [];
    const host = {
      env: this.opts.env,
      sessionId: () => this.opts.sessionFile() ?? '',
      notify: (p: string, n: string | undefined, s: string | undefined) => this.notify(p, n, s),
    };
    for (const plugin of this.manager.enabled()) {
      for (const cfg of plugin.tools) {
        if ((this.opts.builtIns.get(cfg.name) && !cfg.override) || out.some((t) => t.name === cfg.name)) {
          const key = `${plugin.name}/${cfg.name}`;
          if (!this.collisionsLogged.has(key)) {
            this.collisionsLogged.add(key);
            this.opts.log(`[plugins] tool '${cfg.name}' of plugin '${plugin.name}' collides with an existing tool; skipped`);
          }
          continue;
        }
        out.push(pluginToolDefinition(cfg, host));
      }
    }
    return out;
  }

  /** The enabled plugins' `disable_tools`: removed from the main agent's tools last. */
  disabledTools(): Set<string> {
    return new Set(this.manager.enabled().flatMap((p) => p.disableTools));
  }

  /**
   * The main agent's tools with the enabled plugins' tools added, an overriding one in its built-in's place (only while
   * that built-in is on offer), and their `disable_tools` removed (last, as upstream).
   */
  withTools(base: TurnTools): TurnTools {
    const disabled = this.disabledTools();
    const tools = this.tools();
    const added = tools.filter((t) => !this.opts.builtIns.get(t.name));
    const overrides = new Map(tools.filter((t) => this.opts.builtIns.get(t.name)).map((t) => [t.name, t.schema]));
    return {
      offered: [...base.offered.map((s) => overrides.get(s.name) ?? s), ...added.map((t) => t.schema)].filter((s) => !disabled.has(s.name)),
      callable: new Set([...base.callable, ...added.map((t) => t.name)].filter((n) => !disabled.has(n))),
    };
  }

  /** upstream's injection: `## Plugin-injected context`, then `# Plugin: <name> (v<version>)` and its text, by name. */
  promptBlock(): string | undefined {
    const texts = this.manager.enabled().filter((p) => p.systemPrompt !== undefined);
    if (texts.length === 0) return undefined;
    return ['## Plugin-injected context', ...texts.map((p) => `# Plugin: ${p.name} (v${p.version})\n${p.systemPrompt!.trim()}`)].join(
      '\n\n',
    );
  }

  /** Before a turn: session_start, pre_input (may deny or rewrite the prompt), turn_start. */
  beforeTurn(prompt: string): Promise<TurnInputHooks> {
    return runBeforeTurnHooks(this.hookHost(), this.manager.enabled(), prompt);
  }

  /** pre_turn, on a turn with images: the hooks may pick the turn's model (`modify.model`). */
  beforeImageTurn(args: { model: string }): Promise<PreTurnChoice> {
    return runPreTurnHooks(this.hookHost(), this.manager.enabled(), args);
  }

  /** Before each model request of a turn: pre_agent_start and pre_context may change that request's messages. */
  beforeRequest(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return runBeforeRequestHooks(this.hookHost(), this.manager.enabled(), messages);
  }

  /** After every turn, cancelled ones too: turn_end, then session_stop (with the session's totals). */
  async afterTurn(session: { turns: number; model: string | undefined }): Promise<void> {
    const plugins = this.manager.enabled();
    await runAdvisoryHooks(this.hookHost(), plugins, 'turn_end');
    await runAdvisoryHooks(this.hookHost(), plugins, 'session_stop', {
      session: { turns: session.turns, model: session.model ?? '' },
      turn: null,
    });
  }

  /** upstream's pre_compact: before any compaction of the session, manual or automatic (`args.trigger` with pass_args). */
  beforeCompact(trigger: 'manual' | 'auto'): Promise<void> {
    return runAdvisoryHooks(this.hookHost(), this.manager.enabled(), 'pre_compact', { trigger });
  }

  /** session_shutdown, once, at stdin EOF; never throws. */
  shutdown(): Promise<void> {
    return runAdvisoryHooks(this.hookHost(), this.manager.enabled(), 'session_shutdown').catch((err: Error) =>
      this.opts.log(`plugin hooks failed: ${err.stack ?? err}`),
    );
  }

  private hookHost(): HookHost {
    return {
      workspace: this.opts.workspace,
      sessionId: this.opts.sessionFile() ?? '',
      env: this.opts.env,
      notify: (p, n, s) => this.notify(p, n, s),
    };
  }

  gate(): GatePlugins {
    return {
      tool: (name) => this.tools().find((t) => t.name === name),
      hooks: (tool) => hasToolHooks(this.manager.enabled(), tool, 'pre') || hasToolHooks(this.manager.enabled(), tool, 'post'),
      pre: (tool, args) => runPreToolHooks(this.hookHost(), this.manager.enabled(), tool, args),
      post: (tool, args, outcome, notes) => runPostToolHooks(this.hookHost(), this.manager.enabled(), tool, args, outcome, notes),
    };
  }
}
