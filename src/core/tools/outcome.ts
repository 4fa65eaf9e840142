/** Building tool outcomes, and turning the errors tools throw into failed outcomes the model can act on. */
import { PathError } from '../platform/workspace';
import type { FileChange, ToolContext, ToolOutcome, ToolStatus } from './types';

/** Bad or missing tool arguments; the message is for the model. */
export class ToolInputError extends Error {}

export function succeeded(output: string, extra: { diff?: string; fileChanges?: FileChange[] } = {}): ToolOutcome {
  const outcome: ToolOutcome = { ok: true, output, status: 'success', fileChanges: extra.fileChanges ?? [] };
  if (extra.diff !== undefined) outcome.diff = extra.diff;
  return outcome;
}

export function failed(output: string, status: ToolStatus = 'failed'): ToolOutcome {
  return { ok: false, output, status, fileChanges: [] };
}

type ToolBody = (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutcome>;

/** Wraps a tool body so argument, path and filesystem errors become a failed outcome prefixed with the tool name. */
export function guarded(toolName: string, body: ToolBody): ToolBody {
  return async (args, ctx) => {
    try {
      return await body(args, ctx);
    } catch (error) {
      if (ctx.signal.aborted) return failed(`${toolName}: cancelled`, 'cancelled');
      return failed(`${toolName}: ${describeError(error)}`);
    }
  };
}

export function describeError(error: unknown): string {
  if (error instanceof ToolInputError || error instanceof PathError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && code in FS_ERRORS) return FS_ERRORS[code];
  return error instanceof Error ? error.message : String(error);
}

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'already exists',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent of this path is not a directory',
  ENOTEMPTY: 'directory is not empty',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many levels of symbolic links',
};

/** Plugin hooks' notes end the model-facing output, as upstream appends them. */
export function withNotes(outcome: ToolOutcome, notes: readonly string[]): ToolOutcome {
  return notes.length === 0 ? outcome : { ...outcome, output: `${outcome.output}\n\nPlugin hooks:\n- ${notes.join('\n- ')}` };
}
