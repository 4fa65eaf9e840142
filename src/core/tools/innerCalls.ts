/** The bulk tools' inner calls: each run through the approval gate as a call of its own, then summed up for the model. */
import { failed, ToolInputError } from './outcome';
import type { ToolContext, ToolOutcome, ToolStatus } from './types';

export interface InnerCall {
  name: string;
  args: Record<string, unknown>;
  /** What the summary line names the call by (a path, or the tool's name). */
  label: string;
}

/** Runs the calls in order (stopping at a cancellation); one summary line per call, ok only when every call was. */
export async function runInnerCalls(tool: string, calls: InnerCall[], ctx: ToolContext): Promise<ToolOutcome> {
  if (!ctx.runInner) throw new Error(`${tool} runs its calls through the approval gate, which did not provide them a runner`);
  const lines: string[] = [];
  const statuses: ToolStatus[] = [];
  for (const [i, call] of calls.entries()) {
    if (ctx.signal.aborted) {
      for (const rest of calls.slice(i)) lines.push(`${rest.label}: not run (cancelled)`);
      statuses.push('cancelled');
      break;
    }
    const outcome = await ctx.runInner(call.name, call.args);
    lines.push(`${call.label}: ${outcome.ok ? '' : `${outcome.status}: `}${outcome.output}`);
    statuses.push(outcome.status);
  }
  const status = overallStatus(statuses);
  return status === 'success' ? { ok: true, output: lines.join('\n'), status, fileChanges: [] } : failed(lines.join('\n'), status);
}

function overallStatus(statuses: ToolStatus[]): ToolStatus {
  if (statuses.every((s) => s === 'success')) return 'success';
  if (statuses.some((s) => s === 'success')) return 'partially_completed';
  return statuses.every((s) => s === statuses[0]) ? statuses[0] : 'failed';
}

/** The objects of a required, non-empty array argument, each checked by `entry`. */
export function entriesOf<T>(
  args: Record<string, unknown>,
  key: string,
  entry: (value: Record<string, unknown>, number: number) => T,
): T[] {
  const value = args[key];
  if (!Array.isArray(value) || value.length === 0) throw new ToolInputError(`'${key}' is required and must be a non-empty array`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ToolInputError(`${key}[${i}] must be an object`);
    return entry(item as Record<string, unknown>, i);
  });
}

/** The string paths of an array argument's entries, for a tool's targets (lenient: skips what is malformed). */
export function entryPaths(args: Record<string, unknown>, key: string): string[] {
  const value = args[key];
  if (!Array.isArray(value)) return [];
  return value
    .map((item) => (typeof item === 'object' && item !== null ? (item as { path?: unknown }).path : undefined))
    .filter((p): p is string => typeof p === 'string' && p !== '');
}
