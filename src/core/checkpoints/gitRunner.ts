import { spawn } from 'node:child_process';

export interface GitRunOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Exit codes that count as success (default [0]). */
  okCodes?: number[];
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

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
  // An inherited index override would make us read or write an index we do not own.
  delete env.GIT_INDEX_FILE;
  return { ...env, ...extra };
}

/** Runs git and collects its output. Rejects when git cannot start or exits with a code not in okCodes. */
export function runGit(args: string[], opts: GitRunOptions): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
      if ((opts.okCodes ?? [0]).includes(result.code)) resolve(result);
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
  return buf.toString('utf8').split('\0').filter((s) => s !== '');
}
