import path from 'node:path';
import { runGit } from '../platform/gitRunner';

/** Where a workspace sits inside a git work tree. */
export interface GitWorkspace {
  /** Top level of the work tree (as git reports it). All git commands run here. */
  top: string;
  /** The workspace relative to `top`: '' or 'sub/dir/' (git's --show-prefix). */
  prefix: string;
  /** Absolute git dir, used for scratch space on the repository's filesystem. */
  gitDir: string;
  /** The user's index file; we only ever copy it. */
  indexFile: string;
  /** HEAD's commit when detected; '' in a repository without commits. */
  head: string;
}

/**
 * The git work tree containing `workspace`, or undefined when git is missing, the workspace is not in a
 * work tree, or the workspace directory itself is ignored by git (a snapshot would capture nothing).
 */
export async function detectGitWorkspace(workspace: string): Promise<GitWorkspace | undefined> {
  let lines: string[];
  let code: number;
  try {
    // HEAD comes last: in a repository without commits git prints the rest and then fails on it (exit 128).
    const result = await runGit(
      [
        'rev-parse',
        '--is-inside-work-tree',
        '--show-toplevel',
        '--show-prefix',
        '--absolute-git-dir',
        '--git-path',
        'index',
        'HEAD^{commit}',
      ],
      { cwd: workspace, okCodes: [0, 128] },
    );
    lines = result.stdout.toString('utf8').split('\n');
    code = result.code;
  } catch {
    return undefined;
  }
  if (lines[0] !== 'true' || lines.length < 5) return undefined;
  const repo: GitWorkspace = {
    top: path.resolve(lines[1]),
    prefix: lines[2],
    gitDir: path.resolve(lines[3]),
    indexFile: path.resolve(workspace, lines[4]),
    head: code === 0 && /^[0-9a-f]{40,64}$/.test(lines[5] ?? '') ? lines[5] : '',
  };
  if (repo.prefix !== '' && (await isIgnored(repo))) return undefined;
  return repo;
}

async function isIgnored(repo: GitWorkspace): Promise<boolean> {
  try {
    const { code } = await runGit(['check-ignore', '-q', '--', repo.prefix.replace(/\/$/, '')], { cwd: repo.top, okCodes: [0, 1] });
    return code === 0;
  } catch {
    return false;
  }
}
