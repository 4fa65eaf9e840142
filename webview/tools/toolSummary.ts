import type { ToolCardStatus, ToolItem } from '../../src/shared/sessionState';

/** What a tool card's header shows: a codicon, the tool's name and its key argument (a path or a command). */
export interface ToolSummary {
  icon: string;
  detail: string;
  path?: string;
}

const ICONS: Record<string, string> = {
  read_file: 'file',
  write_file: 'new-file',
  edit: 'edit',
  patch: 'diff',
  delete: 'trash',
  rename: 'arrow-swap',
  mkdir: 'new-folder',
  list_dir: 'folder-opened',
  grep: 'search',
  glob: 'files',
  bash: 'terminal',
  todo_write: 'checklist',
  todo_read: 'checklist',
  ask: 'question',
  memory: 'bookmark',
  finish: 'pass',
  // SCV's tools.
  read: 'file',
  write: 'new-file',
  web_fetch: 'globe',
  web_search: 'search',
  agent: 'hubot',
  // Upstream's deferred tools.
  load_tools: 'extensions',
  diagnostics: 'warning',
  workspace_activity: 'pulse',
  git_status: 'source-control',
  git_diff: 'git-compare',
  git_log: 'history',
  git_add: 'diff-added',
  git_commit: 'git-commit',
  bulk: 'layers',
  bulk_read: 'files',
  bulk_write: 'save-all',
  bulk_edit: 'replace-all',
};

/** The bulk tools' array of entries, one per inner call, and what each entry is counted as. */
const BULK_ENTRIES: Record<string, { key: string; unit: string }> = {
  bulk: { key: 'calls', unit: 'call' },
  bulk_read: { key: 'paths', unit: 'file' },
  bulk_write: { key: 'files', unit: 'file' },
  bulk_edit: { key: 'edits', unit: 'file' },
};

/** The first line of the core's diagnostics output names the checker it ran (src/core/tools/diagnosticsChecker.ts). */
const DIAGNOSTICS_CHECKERS = new Set(['cargo check', 'tsc --noEmit', 'go build', 'py_compile']);

const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit', 'patch', 'delete', 'mkdir', 'list_dir', 'read', 'write']);

export function toolIcon(name: string): string {
  return ICONS[name] ?? 'tools';
}

/**
 * `args` is the model's raw JSON, possibly still streaming (incomplete); string fields are then read leniently, the
 * others once it is complete. `output` is the result, once there is one.
 */
export function summarizeTool(name: string, args: string, output?: string): ToolSummary {
  const icon = toolIcon(name);
  const field = (key: string) => stringField(args, key);
  if (PATH_TOOLS.has(name)) {
    const path = field('path');
    return path ? { icon, detail: path, path } : { icon, detail: '' };
  }
  if (Object.hasOwn(BULK_ENTRIES, name)) return { icon, detail: bulkDetail(name, args) };
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
    case 'git_diff':
      return { icon, detail: joined(field('path'), parsedArgs(args)?.staged === true ? 'staged' : undefined) };
    case 'git_log': {
      const limit = parsedArgs(args)?.limit;
      return { icon, detail: joined(field('path'), typeof limit === 'number' ? `last ${limit}` : undefined) };
    }
    case 'git_add':
      return { icon, detail: stringListField(args, 'paths').join(', ') };
    case 'git_commit':
      return {
        icon,
        detail: joined(firstLine(field('message') ?? ''), parsedArgs(args)?.all === true ? 'all tracked changes' : undefined),
      };
    case 'diagnostics':
      return { icon, detail: inPath(checkerOf(output), field('path')) };
    case 'load_tools': {
      const parsed = parsedArgs(args);
      return { icon, detail: [...stringsOf(parsed?.tools), ...stringsOf(parsed?.tool)].join(', ') };
    }
    case 'memory':
      return { icon, detail: [field('action'), field('name') ?? field('id')].filter(Boolean).join(' ') };
    case 'finish':
      return { icon, detail: firstLine(field('summary') ?? '') };
    default:
      return { icon, detail: field('path') ?? field('command') ?? field('pattern') ?? field('query') ?? '' };
  }
}

/** "2 files: a.ts, b.ts" for a bulk call's entries (the paths, or for bulk the inner tools' names). */
function bulkDetail(name: string, args: string): string {
  const { key, unit } = BULK_ENTRIES[name];
  const entries = parsedArgs(args)?.[key];
  if (!Array.isArray(entries)) return '';
  const labels = entries
    .map((entry) => (typeof entry === 'string' ? entry : entryLabel(entry)))
    .filter((label): label is string => Boolean(label));
  const count = `${entries.length} ${unit}${entries.length === 1 ? '' : 's'}`;
  return labels.length > 0 ? `${count}: ${labels.join(', ')}` : count;
}

function entryLabel(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { path, name } = entry as { path?: unknown; name?: unknown };
  return typeof path === 'string' ? path : typeof name === 'string' ? name : undefined;
}

function checkerOf(output: string | undefined): string | undefined {
  const first = output?.split('\n', 1)[0];
  return first !== undefined && DIAGNOSTICS_CHECKERS.has(first) ? first : undefined;
}

/** "what in path", or whichever of the two is there. */
function inPath(what: string | undefined, path: string | undefined): string {
  return what && path ? `${what} in ${path}` : ((what || path) ?? '');
}

/** The parts that are there, "a · b". */
function joined(...parts: (string | undefined)[]): string {
  return parts.filter(Boolean).join(' · ');
}

/** A string, or an array's strings, as a list. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A top-level array of strings (its strings), once the JSON is complete. */
export function stringListField(json: string, key: string): string[] {
  const value = parsedArgs(json)?.[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The arguments as an object once they are complete JSON; undefined while they stream. */
function parsedArgs(args: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
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
  return item.status === 'pending' || item.status === 'running' ? (item.progress ?? NO_LINES) : NO_LINES;
}

const NO_LINES: readonly string[] = Object.freeze([]);

const STATUS_LABELS: Record<ToolCardStatus, string> = {
  streaming: 'preparing',
  pending: 'pending',
  awaiting_approval: 'needs approval',
  running: 'running',
  success: 'done',
  denied: 'denied',
  cancelled: 'cancelled',
  timed_out: 'timed out',
  failed: 'failed',
  stale: 'stale',
  partially_completed: 'partial',
};

export function toolStatusLabel(status: ToolCardStatus): string {
  return STATUS_LABELS[status] ?? status;
}

/** The tool status as one of the badge tones the stylesheet knows. */
export function toolStatusTone(status: ToolCardStatus): 'busy' | 'ok' | 'warn' | 'error' | 'muted' {
  switch (status) {
    case 'streaming':
    case 'pending':
    case 'running':
      return 'busy';
    case 'success':
      return 'ok';
    case 'awaiting_approval':
    case 'partially_completed':
    case 'timed_out':
      return 'warn';
    case 'failed':
    case 'denied':
      return 'error';
    default:
      return 'muted';
  }
}
