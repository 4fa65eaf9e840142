/** What a child run needs of the core, and the calling run a subagent host serves. */
import type { ModelInfo } from '../../protocol';
import type { AgentDefinition } from '../agents/types';
import type { SubagentSettings } from '../config/coreConfig';
import type { IntercomBus } from '../intercom/intercomBus';
import type { ChatMessage, ResolvedProvider } from '../providers/types';
import type { streamChat } from '../providers/stream';
import type { ChildScope } from '../runtime/childScope';
import type { EventSink } from '../runtime/eventSink';
import type { RunScope } from '../runtime/runScope';
import type { RunRecord } from '../sessions/sessionTypes';
import type { ToolRegistry } from '../tools/registry';
import type { ToolContext } from '../tools/types';
import type { SubagentRegistry } from './subagentRegistry';
import type { ApprovalState } from '../agent/toolGate';
import type { UsageTracker } from '../agent/usageTracker';
import type { GatePlugins } from '../agent/gatePlugins';

/** What the model and its provider are, for a child's requests. */
export interface ModelRoute {
  model: string;
  provider: ResolvedProvider;
  modelInfo?: ModelInfo;
}

/** What a child run needs of the core (CoreRuntime in production, fakes in tests). */
export interface ChildEnv {
  sink: EventSink;
  registry: SubagentRegistry;
  approvals: ApprovalState;
  /** The session's usage: a child's tokens are added to it. */
  usage: () => UsageTracker;
  secrets(): string[];
  idleTimeoutMs: number;
  settings: SubagentSettings;
  agents(): AgentDefinition[];
  /** The root turn's model: a child without a model of its own runs on it. */
  parentModel: ModelRoute;
  /** The provider of another model, or undefined when none serves it. */
  route(model: string): ModelRoute | undefined;
  /** The shared base system prompt (the project context). */
  basePrompt(): string;
  /** The `<available_skills>` block of an agent's `skills:` names, or undefined when none is a skill. */
  skillsBlock?(names: readonly string[]): string | undefined;
  /** The main conversation, for a forked child. */
  parentMessages(): readonly ChatMessage[];
  /** The base tool context of a child: its signal and workspace (confinement), not yet its host or intercom. */
  toolContext(child: ChildScope, workspace: string | undefined, editedContent?: string): ToolContext;
  refuseTool(name: string): string | undefined;
  /** This core's own tools (app/allTools.ts): a child is offered only these. */
  builtIns: ToolRegistry;
  /**
   * The main agent's plugins: a child's calls run their hooks too (upstream's pre_bash fires for child bash), but a
   * child is offered no plugin tool (they are the main agent's).
   */
  plugins?: GatePlugins;
  recordRun(record: RunRecord): void;
  intercom?: IntercomBus;
  /** Compaction of a child's own context (the session's `auto_compact`, on unless false) and its instructions. */
  autoCompact?: boolean;
  compactInstructions?: string;
  /** A test seam; the provider client by default. */
  stream?: typeof streamChat;
}

/** The calling run a host serves. */
export interface HostCaller {
  root: RunScope;
  /** The calling child, or undefined for the foreground run. */
  child?: ChildScope;
  depth: number;
  /** The nesting limit of the caller's subtree. */
  maxDepth: number;
  /** The calling child's conversation, which its forked children inherit; the main conversation by default. */
  messages?: () => readonly ChatMessage[];
}
