/** Running git for the worktrees: whole output (file lists, merged contents), exit codes kept, never paging or prompting. */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runGit as runGitProcess, type GitRunResult } from '../platform/gitRunner';

export type GitRun = GitRunResult;

const GIT_TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/** Runs git in `cwd`; resolves with its exit code (never rejects on a non-zero exit, only when git cannot start, times out or floods). */
export async function runGit(cwd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<GitRun> {
  const run = await runGitProcess(args, {
    cwd,
    env: extraEnv,
    okCodes: 'any',
    timeoutMs: GIT_TIMEOUT_MS,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  return { ...run, stderr: run.stderr.trim() };
}

/** Runs git and returns its trimmed output, or throws its error text. */
export async function gitOutput(cwd: string, args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<string> {
  const run = await runGit(cwd, args, extraEnv);
  if (run.code !== 0) throw new Error(run.stderr || `git ${args[0]} failed (exit ${run.code})`);
  return run.stdout.toString('utf8').trim();
}

/** Never mirrored, proposed or listed: git's own data and ours (which holds the worktrees themselves). */
const SKIPPED_SEGMENTS = new Set(['.git', '.catalyst-code']);

/**
 * The files under `root` (relative, forward slashes) that git would show: tracked, and untracked but not ignored
 * (`git ls-files -co --exclude-standard`), minus `.git` and `.catalyst-code` at any level and nested repositories.
 */
export async function listFiles(root: string): Promise<string[]> {
  const run = await runGit(root, ['ls-files', '-z', '-c', '-o', '--exclude-standard']);
  if (run.code !== 0) throw new Error(run.stderr || 'git ls-files failed');
  const files = new Set<string>();
  for (const rel of run.stdout.toString('utf8').split('\0')) {
    if (!rel || rel.endsWith('/') || rel.split('/').some((s) => SKIPPED_SEGMENTS.has(s))) continue;
    files.add(rel);
  }
  return [...files].sort();
}

/** What one path holds: a file's bytes, a symlink's target, or nothing (a directory counts as nothing). */
export type PathState = { kind: 'file'; bytes: Buffer } | { kind: 'link'; target: string } | { kind: 'missing' };

export async function readPathState(abs: string): Promise<PathState> {
  try {
    const stat = await fs.lstat(abs);
    if (stat.isSymbolicLink()) return { kind: 'link', target: await fs.readlink(abs) };
    if (!stat.isFile()) return { kind: 'missing' };
    return { kind: 'file', bytes: await fs.readFile(abs) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return { kind: 'missing' };
    throw error;
  }
}

export function sameState(a: PathState, b: PathState): boolean {
  return stateDigest(a) === stateDigest(b);
}

/** A short fingerprint of a path's content: equal digests, equal contents. Undefined for a missing path. */
export function stateDigest(state: PathState): string | undefined {
  if (state.kind === 'missing') return undefined;
  if (state.kind === 'link') return `link:${state.target}`;
  return `file:${createHash('sha256').update(state.bytes).digest('hex')}`;
}

/** Writes `state` at `abs` (creating parents), or removes what is there for `missing`. */
export async function writePathState(abs: string, state: PathState): Promise<void> {
  await fs.rm(abs, { force: true });
  if (state.kind === 'missing') return;
  await fs.mkdir(path.dirname(abs), { recursive: true });
  if (state.kind === 'link') await fs.symlink(state.target, abs);
  else await fs.writeFile(abs, state.bytes);
}

/** Runs `op` over `items`, `width` at a time (file reads overlap; the tree is never read all at once), results in input order. */
export async function mapInBatches<T, R>(items: readonly T[], op: (item: T) => Promise<R>, width = 32): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(op))));
  return results;
}
