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

export const BRIDGE_TOOLS: readonly string[] = Object.freeze(['contact_supervisor', 'intercom']);

/** The tools that start children: offered to a child only while it may still nest. */
const NESTING_TOOLS: ReadonlySet<string> = new Set(['subagent', 'spawn']);

/** Tools a child is never offered, even when declared: it cannot ask the user (it contacts its supervisor instead). */
const NEVER_FOR_CHILDREN: ReadonlySet<string> = new Set(['ask']);

export interface ChildToolOptions {
  /** The child's depth (1 for a child of the main agent). */
  depth: number;
  /** Its subtree's nesting limit (ChildSpec.maxDepth). */
  maxDepth: number;
  /** The intercom bridge is on (upstream's default mode `always`): contact_supervisor and intercom are added. */
  bridge: boolean;
  /** Whether this core has a tool of that name; a declared tool it lacks (fetch, web_search…) is left out. */
  has(name: string): boolean;
}

/**
 * The declared tools (or the read-only default) but `ask`, `subagent` and `spawn` only while the child may still nest (`depth < maxDepth`,
 * upstream's `depth + 1 < max` counted from the caller), the bridge tools, and always `finish`; in that order, once each.
 */
export function childToolNames(agent: AgentDefinition, options: ChildToolOptions): string[] {
  const mayNest = options.depth < options.maxDepth;
  const declared = agent.tools.length > 0 ? agent.tools : DEFAULT_CHILD_TOOLS;
  const names = declared.filter((name) => !NEVER_FOR_CHILDREN.has(name) && (!NESTING_TOOLS.has(name) || mayNest));
  if (options.bridge) names.push(...BRIDGE_TOOLS);
  names.push('finish');
  return [...new Set(names)].filter((name) => options.has(name));
}

/** The nesting limit of a child's subtree: the caller's, lowered by the agent's `maxSubagentDepth`. */
export function childMaxDepth(callerMaxDepth: number, agent: AgentDefinition): number {
  return agent.maxSubagentDepth === undefined ? callerMaxDepth : Math.min(callerMaxDepth, agent.maxSubagentDepth);
}

/** Whether a child gets the bridge tools and instructions (upstream's `bridge_active`). */
export function bridgeActive(mode: IntercomBridgeMode, context: 'fresh' | 'fork'): boolean {
  return mode === 'always' || (mode === 'fork-only' && context === 'fork');
}
