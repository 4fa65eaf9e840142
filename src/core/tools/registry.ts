/** The core's built-in tools, their kinds for the approval gate, and the paths a call touches. */
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

/** Upstream's read-only tools (research §4.3). Everything else, unknown and plugin tools included, is destructive. */
const READONLY_TOOLS = new Set([
  'read_file',
  'list_dir',
  'grep',
  'glob',
  'bulk_read',
  'todo_read',
  'diagnostics',
  'git_status',
  'git_diff',
  'git_log',
  'workspace_activity',
  'web_search',
  'memory',
  'knowledge',
  'collections',
  'ask',
  'contact_supervisor',
  'intercom',
  'finish',
  'load_tools',
  'goal_write_plan',
  'browser_list_sessions',
  'browser_snapshot',
  'browser_find',
  'browser_screenshot',
]);

export function toolKind(name: string): ToolKind {
  return READONLY_TOOLS.has(name) ? 'readonly' : 'destructive';
}

/** The workspace paths a call touches (as the model wrote them) and, for bash, its command. */
export function toolTargets(name: string, args: Record<string, unknown>): { paths: string[]; command?: string } {
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  switch (name) {
    case 'read_file':
    case 'write_file':
    case 'edit':
    case 'patch':
    case 'delete':
    case 'mkdir':
      return { paths: present(text('path')) };
    case 'rename':
      return { paths: [...present(text('from')), ...present(text('to'))] };
    case 'list_dir':
      return { paths: [text('path') || '.'] };
    case 'grep': {
      const paths = Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string' && p !== '') : [];
      return { paths: paths.length > 0 ? paths : [text('path') || '.'] };
    }
    case 'glob':
      return { paths: [globBase(text('pattern') ?? '')] };
    case 'bash':
      return { paths: [], command: text('command') ?? '' };
    default:
      return { paths: [] };
  }
}

/**
 * The directory a glob pattern searches: its segments before the first one with a wildcard ('.' for none), so that
 * confinement refuses `../x/*` or `/etc/*` before any prompt, like a path argument.
 */
function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const firstWildcard = segments.findIndex((segment) => /[*?[\]{}()!]/.test(segment));
  return (firstWildcard < 0 ? segments : segments.slice(0, firstWildcard)).join('/') || '.';
}

function present(value: string | undefined): string[] {
  return value ? [value] : [];
}
