/**
 * Every built-in tool of this core, in the order the model is offered them, and their lookup (tools/registry.ts). A
 * tool declares all of its facts itself (tools/types.ts ToolDefinition); this list only names it.
 */
import { askTool } from '../tools/askTool';
import { bashTool } from '../tools/bashTool';
import { bulkEditTool } from '../tools/bulkEditTool';
import { bulkReadTool } from '../tools/bulkReadTool';
import { bulkTool } from '../tools/bulkTool';
import { bulkWriteTool } from '../tools/bulkWriteTool';
import { contactSupervisorTool } from '../tools/contactSupervisorTool';
import { deleteTool } from '../tools/deleteTool';
import { diagnosticsTool } from '../tools/diagnosticsTool';
import { editTool } from '../tools/editTool';
import { fetchTool } from '../tools/fetchTool';
import { finishTool } from '../tools/finishTool';
import { gitAddTool } from '../tools/gitAddTool';
import { gitCommitTool } from '../tools/gitCommitTool';
import { gitDiffTool } from '../tools/gitDiffTool';
import { gitLogTool } from '../tools/gitLogTool';
import { gitStatusTool } from '../tools/gitStatusTool';
import { globTool } from '../tools/globTool';
import { grepTool } from '../tools/grepTool';
import { intercomTool } from '../tools/intercomTool';
import { listDirTool } from '../tools/listDirTool';
import { loadToolsTool } from '../tools/loadToolsTool';
import { memoryTool } from '../tools/memoryTool';
import { mkdirTool } from '../tools/mkdirTool';
import { patchTool } from '../tools/patchTool';
import { readFileTool } from '../tools/readFileTool';
import { renameTool } from '../tools/renameTool';
import { todoReadTool, todoWriteTool } from '../tools/todoTools';
import { webSearchTool } from '../tools/webSearchTool';
import { workspaceActivityTool } from '../tools/workspaceActivityTool';
import { writeFileTool } from '../tools/writeFileTool';
import { goalWritePlanTool } from '../goal/goalWritePlanTool';
import { spawnTool } from '../subagents/spawnTool';
import { subagentTool } from '../subagents/subagentTool';
import { toolRegistry, type ToolRegistry } from '../tools/registry';
import type { ToolDefinition } from '../tools/types';

export const ALL_TOOLS: readonly ToolDefinition[] = Object.freeze([
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
  goalWritePlanTool,
]);

export const coreTools: ToolRegistry = toolRegistry(ALL_TOOLS);

/** Whether a tool's permission rules match path globs (`pathRules`): a plugin tool of a built-in's name matches as that one. */
export const toolRulesMatchPaths = (tool: string): boolean => !!coreTools.get(tool)?.pathRules;
