/** The core's built-in tools, each declared whole in its own file, and their lookup by name. */
import { askTool } from './askTool';
import { bashTool } from './bashTool';
import { deleteTool } from './deleteTool';
import { editTool } from './editTool';
import { globTool } from './globTool';
import { grepTool } from './grepTool';
import { listDirTool } from './listDirTool';
import { mkdirTool } from './mkdirTool';
import { patchTool } from './patchTool';
import { readFileTool } from './readFileTool';
import { renameTool } from './renameTool';
import { todoReadTool, todoWriteTool } from './todoTools';
import type { ToolDefinition, ToolKind } from './types';
import { UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN } from './upstreamReadonlyTools';
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
]);

const TOOLS_BY_NAME = new Map(CORE_TOOLS.map((tool) => [tool.name, tool]));

export function getTool(name: string): ToolDefinition | undefined {
  return TOOLS_BY_NAME.get(name);
}

/** The kind of any tool name: a built-in's own declaration, else upstream's; unknown and plugin tools are destructive. */
export function toolKind(name: string): ToolKind {
  const builtIn = getTool(name);
  if (builtIn) return builtIn.kind;
  return UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN.has(name) ? 'readonly' : 'destructive';
}
