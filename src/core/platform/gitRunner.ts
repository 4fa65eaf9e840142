import { spawn } from 'node:child_process';
import { killProcessGroup } from './processGroup';

export interface GitRunOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Exit codes that count as success (default [0]). */
  okCodes?: number[];
  /** Kills git and rejects with the signal's reason when aborted. */
  signal?: AbortSignal;
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

/** Inherited overrides that would point git at a repository, index or object store we did not choose. */
const INHERITED_REPO_VARS = [
  'GIT_INDEX_FILE',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
];

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
  for (const name of INHERITED_REPO_VARS) delete env[name];
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
    const child = spawn('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), windowsHide: true, detached: group !== undefined });
    let aborted = false;
    const onAbort = () => {
      if (group && child.pid !== undefined) {
        aborted = true;
        void killProcessGroup(child.pid, group.graceMs);
        return;
      }
      child.kill('SIGKILL');
      reject(opts.signal?.reason);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
      if (aborted) reject(opts.signal?.reason);
      else if ((opts.okCodes ?? [0]).includes(result.code)) resolve(result);
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
