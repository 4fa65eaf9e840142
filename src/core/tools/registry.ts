/** The core's built-in tools, each declared whole in its own file, and their lookup by name. */
import { BRIDGE_TOOLS } from '../agents/childTools';
import { askTool } from './askTool';
import { bashTool } from './bashTool';
import { bulkEditTool } from './bulkEditTool';
import { bulkReadTool } from './bulkReadTool';
import { bulkTool } from './bulkTool';
import { bulkWriteTool } from './bulkWriteTool';
import { contactSupervisorTool } from './contactSupervisorTool';
import { deleteTool } from './deleteTool';
import { diagnosticsTool } from './diagnosticsTool';
import { editTool } from './editTool';
import { fetchTool } from './fetchTool';
import { finishTool } from './finishTool';
import { gitAddTool } from './gitAddTool';
import { gitCommitTool } from './gitCommitTool';
import { gitDiffTool } from './gitDiffTool';
import { gitLogTool } from './gitLogTool';
import { gitStatusTool } from './gitStatusTool';
import { globTool } from './globTool';
import { goalWritePlanTool } from './goalWritePlanTool';
import { grepTool } from './grepTool';
import { intercomTool } from './intercomTool';
import { listDirTool } from './listDirTool';
import { LoadedTools } from './loadedTools';
import { loadToolsTool } from './loadToolsTool';
import { memoryTool } from './memoryTool';
import { mkdirTool } from './mkdirTool';
import { patchTool } from './patchTool';
import { readFileTool } from './readFileTool';
import { renameTool } from './renameTool';
import { spawnTool } from '../subagents/spawnTool';
import { subagentTool } from '../subagents/subagentTool';
import { todoReadTool, todoWriteTool } from './todoTools';
import type { ToolDefinition, ToolKind } from './types';
import { UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN } from './upstreamReadonlyTools';
import { webSearchTool } from './webSearchTool';
import { workspaceActivityTool } from './workspaceActivityTool';
import { writeFileTool } from './writeFileTool';

export const CORE_TOOLS: readonly ToolDefinition[] = Object.freeze([
  readFileTool,
  writeFileTool,
  editTool,
  patchTool,
  deleteTool,
  renameTool,
  mkdirTool,
  listDirTool,
  grepTool,
  globTool,
  bashTool,
  todoWriteTool,
  todoReadTool,
  askTool,
  finishTool,
  memoryTool,
  loadToolsTool,
  gitStatusTool,
  gitDiffTool,
  gitLogTool,
  gitAddTool,
  gitCommitTool,
  diagnosticsTool,
  bulkTool,
  bulkReadTool,
  bulkWriteTool,
  bulkEditTool,
  workspaceActivityTool,
  fetchTool,
  webSearchTool,
  subagentTool,
  spawnTool,
  contactSupervisorTool,
  intercomTool,
]);

/** Known to the gate but offered only by the turn that adds them (TurnExtras): never listed, never loadable. */
const TURN_ONLY_TOOLS: readonly ToolDefinition[] = [goalWritePlanTool];

const TOOLS_BY_NAME = new Map([...CORE_TOOLS, ...TURN_ONLY_TOOLS].map((tool) => [tool.name, tool]));

export function getTool(name: string): ToolDefinition | undefined {
  return TOOLS_BY_NAME.get(name);
}

/** A child's end of the intercom: offered to subagents (agents/childTools.ts), never to the main agent. */
const CHILD_ONLY_TOOLS: ReadonlySet<string> = new Set(BRIDGE_TOOLS);

/**
 * The tools the main agent is offered now: every one that is not deferred or child-only, and the deferred ones the
 * session loaded, but those `withheld` now (the web tools while they are off, web_search while no search key is set).
 */
export function offeredTools(loaded: Pick<LoadedTools, 'has'>, withheld: ReadonlySet<string> = NO_TOOLS): ToolDefinition[] {
  return CORE_TOOLS.filter(
    (tool) => !CHILD_ONLY_TOOLS.has(tool.name) && (!tool.deferred || loaded.has(tool.name)) && !withheld.has(tool.name),
  );
}

const NO_TOOLS: ReadonlySet<string> = new Set();

/** A session's empty set of loaded deferred tools, over this core's tools but the `absent` ones (the web tools turned off). */
export function newLoadedTools(absent: readonly string[] = []): LoadedTools {
  const names = (deferred: boolean) =>
    CORE_TOOLS.filter((tool) => !!tool.deferred === deferred && !absent.includes(tool.name)).map((tool) => tool.name);
  return new LoadedTools(names(true), names(false));
}

/** The kind of any tool name: a built-in's own declaration, else upstream's; unknown and plugin tools are destructive. */
export function toolKind(name: string): ToolKind {
  const builtIn = getTool(name);
  if (builtIn) return builtIn.kind;
  return UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN.has(name) ? 'readonly' : 'destructive';
}
