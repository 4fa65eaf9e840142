/** The tools a child agent is offered (upstream's `subagent_allowed_names`, research A:246-258). */
import type { IntercomBridgeMode } from '../config/coreConfig';
import type { AgentDefinition } from './types';

/** What an agent that declares no tools gets: upstream's read-only default. */
export const DEFAULT_CHILD_TOOLS: readonly string[] = Object.freeze([
  'read_file',
  'list_dir',
  'grep',
  'glob',
  'todo_write',
  'todo_read',
  'finish',
  'ask',
  'memory',
]);

/** The facts of a tool (tools/types.ts ToolDefinition) that decide whether a child is offered it. */
export interface ChildToolFacts {
  name: string;
  /** `main`: never a child's, even when declared (`ask`: it contacts its supervisor instead); `child`: the bridge's. */
  audience?: 'main' | 'child';
  /** Starts children (`subagent`, `spawn`): offered only while the child may still nest. */
  startsChildren?: true;
}

/** What choosing a child's tools reads of this core's tools (tools/registry.ts's ToolRegistry is one). */
export interface ChildToolCatalog {
  readonly all: readonly ChildToolFacts[];
  /** Undefined for a tool this core lacks: a declared tool it lacks (fetch, web_search…) is left out. */
  get(name: string): ChildToolFacts | undefined;
}

export interface ChildToolOptions {
  /** The child's depth (1 for a child of the main agent). */
  depth: number;
  /** Its subtree's nesting limit (ChildSpec.maxDepth). */
  maxDepth: number;
  /** The intercom bridge is on (upstream's default mode `always`): contact_supervisor and intercom are added. */
  bridge: boolean;
  tools: ChildToolCatalog;
}

/**
 * The declared tools (or the read-only default) but `ask`, `subagent` and `spawn` only while the child may still nest (`depth < maxDepth`,
 * upstream's `depth + 1 < max` counted from the caller), the bridge tools, and always `finish`; in that order, once each.
 */
export function childToolNames(agent: AgentDefinition, options: ChildToolOptions): string[] {
  const mayNest = options.depth < options.maxDepth;
  const declared = agent.tools.length > 0 ? agent.tools : DEFAULT_CHILD_TOOLS;
  const { tools } = options;
  const names = declared.filter((name) => tools.get(name)?.audience !== 'main' && (!tools.get(name)?.startsChildren || mayNest));
  if (options.bridge) names.push(...tools.all.filter((tool) => tool.audience === 'child').map((tool) => tool.name));
  names.push('finish');
  return [...new Set(names)].filter((name) => !!tools.get(name));
}

/** The nesting limit of a child's subtree: the caller's, lowered by the agent's `maxSubagentDepth`. */
export function childMaxDepth(callerMaxDepth: number, agent: AgentDefinition): number {
  return agent.maxSubagentDepth === undefined ? callerMaxDepth : Math.min(callerMaxDepth, agent.maxSubagentDepth);
}

/** Whether a child gets the bridge tools and instructions (upstream's `bridge_active`). */
export function bridgeActive(mode: IntercomBridgeMode, context: 'fresh' | 'fork'): boolean {
  return mode === 'always' || (mode === 'fork-only' && context === 'fork');
}
