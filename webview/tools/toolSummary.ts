import type { ToolCardStatus, ToolItem } from '../../src/shared/sessionState';

/** What a tool card's header shows: a codicon, the tool's name and its key argument (a path or a command). */
export interface ToolSummary { icon: string; detail: string; path?: string }

const ICONS: Record<string, string> = {
  read_file: 'file', write_file: 'new-file', edit: 'edit', patch: 'diff', delete: 'trash', rename: 'arrow-swap',
  mkdir: 'new-folder', list_dir: 'folder-opened', grep: 'search', glob: 'files', bash: 'terminal',
  todo_write: 'checklist', todo_read: 'checklist', ask: 'question', memory: 'bookmark', finish: 'pass',
  // SCV's tools.
  read: 'file', write: 'new-file', web_fetch: 'globe', web_search: 'search', agent: 'hubot',
};

const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit', 'patch', 'delete', 'mkdir', 'list_dir', 'read', 'write']);

export function toolIcon(name: string): string {
  return ICONS[name] ?? 'tools';
}

/** `args` is the model's raw JSON, possibly still streaming (incomplete); fields are then read leniently. */
export function summarizeTool(name: string, args: string): ToolSummary {
  const icon = toolIcon(name);
  const field = (key: string) => stringField(args, key);
  if (PATH_TOOLS.has(name)) {
    const path = field('path');
    return path ? { icon, detail: path, path } : { icon, detail: '' };
  }
  switch (name) {
    case 'bash':
      return { icon, detail: firstLine(field('command') ?? '') };
    case 'rename': {
      const from = field('from') ?? '';
      const to = field('to') ?? '';
      return to ? { icon, detail: `${from} → ${to}`, path: to } : { icon, detail: from };
    }
    case 'grep': {
      const pattern = field('pattern') ?? '';
      const path = field('path');
      return { icon, detail: path ? `${pattern} in ${path}` : pattern };
    }
    case 'glob':
      return { icon, detail: field('pattern') ?? '' };
    case 'web_fetch':
      return { icon, detail: field('url') ?? '' };
    default:
      return { icon, detail: field('path') ?? field('command') ?? field('pattern') ?? field('query') ?? '' };
  }
}

function firstLine(text: string): string {
  const lines = text.split('\n');
  return lines.length > 1 ? `${lines[0]} …` : text;
}

/** A top-level string field of a JSON object, from complete JSON or, failing that, from a streaming prefix. */
export function stringField(json: string, key: string): string | undefined {
  try {
    const value = (JSON.parse(json) as Record<string, unknown>)?.[key];
    return typeof value === 'string' ? value : undefined;
  } catch {
    const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`).exec(json);
    return match ? unescapeJsonString(match[1]) : undefined;
  }
}

function unescapeJsonString(raw: string): string {
  try {
    return JSON.parse(`"${raw.replace(/\\$/, '')}"`) as string;
  } catch {
    return raw;
  }
}

/** Pretty-printed arguments for the expanded card; the raw text when it is not (yet) valid JSON. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** The progress lines a tool card shows: only while the tool waits or runs (its output takes over once it finished). */
export function visibleProgress(item: ToolItem): readonly string[] {
  return item.status === 'pending' || item.status === 'running' ? item.progress ?? NO_LINES : NO_LINES;
}

const NO_LINES: readonly string[] = Object.freeze([]);

const STATUS_LABELS: Record<ToolCardStatus, string> = {
  streaming: 'preparing', pending: 'pending', awaiting_approval: 'needs approval', running: 'running', success: 'done',
  denied: 'denied', cancelled: 'cancelled', timed_out: 'timed out', failed: 'failed', stale: 'stale',
  partially_completed: 'partial',
};

export function toolStatusLabel(status: ToolCardStatus): string {
  return STATUS_LABELS[status] ?? status;
}

/** The tool status as one of the badge tones the stylesheet knows. */
export function toolStatusTone(status: ToolCardStatus): 'busy' | 'ok' | 'warn' | 'error' | 'muted' {
  switch (status) {
    case 'streaming': case 'pending': case 'running': return 'busy';
    case 'success': return 'ok';
    case 'awaiting_approval': case 'partially_completed': case 'timed_out': return 'warn';
    case 'failed': case 'denied': return 'error';
    default: return 'muted';
  }
}
