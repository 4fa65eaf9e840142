/** Running git for the git_* tools: in the workspace's own repository, never paging or prompting, bounded in time and output. */
import { failed, succeeded, ToolInputError } from './outcome';
import { gitEnvironment } from '../platform/gitRunner';
import { runProgram } from '../platform/shellCommand';
import type { ToolContext, ToolOutcome } from './types';
import { resolveWorkspacePath } from '../platform/workspace';

const GIT_TIMEOUT_SECS = 30;

export async function runGitTool(args: string[], ctx: ToolContext): Promise<ToolOutcome> {
  const label = `git ${args[0]}`;
  const result = await runProgram({
    program: 'git',
    args,
    cwd: ctx.workspace,
    env: gitEnvironment(),
    timeoutMs: GIT_TIMEOUT_SECS * 1000,
    signal: ctx.signal,
  });
  if (result.spawnError) return failed(`${label}: could not start git (${result.spawnError})`);
  if (result.stoppedBy === 'timeout') return failed(`${label} timed out after ${GIT_TIMEOUT_SECS}s`, 'timed_out');
  if (result.stoppedBy === 'abort') return failed(`${label}: cancelled`, 'cancelled');
  const text = result.output.replace(/\n$/, '');
  if (result.exitCode === 0) return succeeded(text || '(no output)');
  return failed(text || `${label} failed (exit ${result.exitCode ?? result.exitSignal})`);
}

/** `-- <path>` for a confined path argument (git gets it as the model wrote it), nothing without one. */
export function pathspec(path: string | undefined, ctx: ToolContext): string[] {
  if (!path) return [];
  resolveWorkspacePath(ctx.workspace, path);
  return ['--', path];
}

/** Pathspecs of a required, non-empty list of confined paths. */
export function pathspecs(paths: unknown, ctx: ToolContext): string[] {
  if (!Array.isArray(paths) || paths.length === 0) throw new ToolInputError("'paths' is required and must be a non-empty array of paths");
  if (!paths.every((p): p is string => typeof p === 'string' && p !== ''))
    throw new ToolInputError("every entry of 'paths' must be a non-empty string");
  for (const p of paths) resolveWorkspacePath(ctx.workspace, p);
  return ['--', ...paths];
}
