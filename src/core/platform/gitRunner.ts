/** The one way the core runs git: a cleaned environment, collected output, optional timeout, output cap and process group. */
import { spawn } from 'node:child_process';
import { killProcessGroup } from './processGroup';

export interface GitRunOptions {
  cwd: string;
  /** Set on top of the cleaned environment (so these may name an index or git dir of our own). */
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Exit codes that count as success (default [0]); 'any' resolves with whatever code git exits with. */
  okCodes?: number[] | 'any';
  /** Kills git and rejects with the signal's reason when aborted. */
  signal?: AbortSignal;
  /** Kills git and rejects with a timeout error after this long. */
  timeoutMs?: number;
  /** Kills git and rejects when its standard output grows past this many bytes. */
  maxOutputBytes?: number;
  /**
   * Runs git in a process group of its own, which an abort ends as a whole (git's own children too): SIGTERM first, on
   * which git removes its lock files, SIGKILL after `graceMs`. The promise then rejects once git has exited. (Windows has
   * no process groups: git alone is killed there.)
   */
  ownGroup?: { graceMs: number };
}

export interface GitRunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (exit ${code ?? 'signal'}): ${stderr.trim() || 'no output'}`);
    this.name = 'GitCommandError';
  }
}

/**
 * Inherited variables that would make git act on a repository, index, object store, namespace or configuration we did
 * not choose, or read pathspecs differently: a parent git (the core started from a hook or alias) or a user's shell may
 * leave them set. The user's own choices stay: identity, GIT_CONFIG_GLOBAL/SYSTEM/NOSYSTEM/COUNT, ssh and askpass, and
 * GIT_CEILING_DIRECTORIES (which keeps a workspace out of an enclosing repository, e.g. a home directory under git).
 */
export const INHERITED_GIT_OVERRIDES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
  'GIT_SHALLOW_FILE',
  'GIT_NAMESPACE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_PREFIX',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
] as const;

/** The environment every git the core runs gets: never paging, prompting or taking optional locks; inherited overrides removed; `extra` on top. */
export function gitEnvironment(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
  for (const name of INHERITED_GIT_OVERRIDES) delete env[name];
  return { ...env, ...extra };
}

/** Runs git and collects its output. Rejects when git cannot start or exits with a code not in okCodes. */
export function runGit(args: string[], opts: GitRunOptions): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(opts.signal.reason);
      return;
    }
    const group = process.platform === 'win32' ? undefined : opts.ownGroup;
    const child = spawn('git', args, { cwd: opts.cwd, env: gitEnvironment(opts.env), windowsHide: true, detached: group !== undefined });
    // Why git was stopped; it rejects with this once git has exited (at once when git alone is killed).
    let stopReason: { reason: unknown } | undefined;
    const stop = (reason: unknown) => {
      if (stopReason) return;
      stopReason = { reason };
      if (group && child.pid !== undefined) {
        void killProcessGroup(child.pid, group.graceMs);
        return;
      }
      child.kill('SIGKILL');
      reject(reason);
    };
    const onAbort = () => stop(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop(new Error(`git ${args[0]} timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (opts.maxOutputBytes !== undefined && outBytes > opts.maxOutputBytes)
        stop(new Error(`git ${args[0]} wrote more than ${opts.maxOutputBytes} bytes`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
      const okCodes = opts.okCodes ?? [0];
      if (stopReason) reject(stopReason.reason);
      else if (code !== null && (okCodes === 'any' || okCodes.includes(code))) resolve(result);
      else reject(new GitCommandError(args, code, result.stderr));
    });
    child.stdin.on('error', () => {
      // git may exit before reading all input; the exit code reports the real problem.
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** git's -z output split into entries. */
export function splitNul(buf: Buffer): string[] {
  return buf
    .toString('utf8')
    .split('\0')
    .filter((s) => s !== '');
}
