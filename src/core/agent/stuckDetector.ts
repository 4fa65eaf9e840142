/**
 * The main loop's stuck detector (upstream's, research §12.2): when the model makes the same read-only call again and
 * again — the same tool on the same key argument, whatever its offsets or limits — it gets a system message telling it
 * so, and the turn goes on (never a hard stop). The first nudge comes after 3 identical calls in a row; each nudge
 * clears the window and raises the bar by 2 (5, 7, …), so a model that will not change course is reminded less and
 * less often. One detector per turn; children have none.
 */
import type { ToolRegistry } from '../tools/registry';

export const STUCK_THRESHOLD = 3;
const KEY_CHARS = 200;

/** The argument that says what a call is about, by tool; the rest of its arguments (offsets, limits, flags) are incidental. */
const KEY_FIELDS: Record<string, readonly string[]> = {
  grep: ['pattern'],
  glob: ['pattern'],
  bash: ['command'],
  subagent: ['task'],
  read_file: ['path', 'from'],
  write_file: ['path', 'from'],
  edit: ['path', 'from'],
  patch: ['path', 'from'],
  delete: ['path', 'from'],
  rename: ['path', 'from'],
  mkdir: ['path', 'from'],
  memory: ['action', 'name', 'id'],
  fetch: ['url'],
};
const ANY_TOOL_KEYS = ['path', 'from', 'command', 'pattern', 'query', 'task', 'url', 'collection', 'id', 'name'];

interface Signature {
  tool: string;
  key: string;
  /** Anything that is not a known read-only tool may change the workspace: it never counts as spinning. */
  mutating: boolean;
}

export interface StuckCall {
  name: string;
  arguments: string;
}

export class StuckDetector {
  private recent: Signature[] = [];
  private nudges = 0;

  /** `tools`: a call is mutating unless a built-in declares itself read-only. */
  constructor(private readonly tools: Pick<ToolRegistry, 'get'>) {}

  record(call: StuckCall): void {
    this.recent.push(signatureOf(call, this.tools.get(call.name)?.kind !== 'readonly'));
    // Only the last `threshold` entries are ever compared.
    if (this.recent.length > this.threshold()) this.recent.shift();
  }

  /** The nudge for the model when the last calls are one read-only call repeated; undefined otherwise. */
  check(): string | undefined {
    const threshold = this.threshold();
    if (this.recent.length < threshold) return undefined;
    const [first, ...rest] = this.recent.slice(-threshold);
    if (first.mutating || first.tool === 'finish') return undefined;
    if (!rest.every((s) => s.tool === first.tool && s.key === first.key && !s.mutating)) return undefined;
    this.nudges++;
    this.recent = [];
    return nudgeMessage(first, threshold);
  }

  private threshold(): number {
    return STUCK_THRESHOLD + 2 * this.nudges;
  }
}

function signatureOf(call: StuckCall, mutating: boolean): Signature {
  return { tool: call.name, key: keyArgument(call), mutating };
}

function keyArgument(call: StuckCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments || '{}');
  } catch {
    return '<unparseable>';
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return '';
  const fields = KEY_FIELDS[call.name] ?? ANY_TOOL_KEYS;
  const field = fields.find((f) => Object.hasOwn(args, f));
  if (field === undefined) return '';
  const value = (args as Record<string, unknown>)[field];
  return (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, KEY_CHARS);
}

function nudgeMessage(s: Signature, times: number): string {
  const key = s.key ? ` on ${s.key}` : '';
  return [
    `You have called \`${s.tool}\`${key} ${times} times in a row without changing any file: the same read-only call returns what you already have.`,
    'Change course now:',
    '1. Use the result you already have instead of fetching it again.',
    '2. Try another tool or another approach to the task.',
    '3. Re-read the task and check whether it is already done.',
    '4. If it is done, answer with your summary (or call `finish`).',
    'Do not repeat the same call.',
  ].join('\n');
}
