import { execFileSync } from 'node:child_process';

/**
 * A user's git repository as the workspace of a launch: set it up in `beforeLaunch`, and read back what the user
 * cares about (HEAD, branches, stashes, the index) to prove a feature left it alone. Git runs with a fixed identity and
 * no global or system config, so the machine's settings play no part.
 */

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'E2E User',
  GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
  GIT_COMMITTER_NAME: 'E2E User',
  GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['--no-optional-locks', '-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface GitUserState {
  head: string;
  /** `refs/heads/<name> <sha>`, sorted. */
  branches: string[];
  /** `git stash list`: `<sha> <subject>`. */
  stashes: string[];
  /** `git ls-files --stage`: mode, blob and path of every index entry. */
  index: string[];
  /** The index column of `git status --porcelain` (what is staged), e.g. `M  staged.txt`. */
  staged: string[];
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.length > 0);

export function gitUserState(cwd: string): GitUserState {
  return {
    head: git(cwd, 'rev-parse', 'HEAD').trim(),
    branches: lines(git(cwd, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads')).sort(),
    stashes: lines(git(cwd, 'stash', 'list', '--format=%H %gs')),
    index: lines(git(cwd, 'ls-files', '--stage')),
    staged: lines(git(cwd, 'status', '--porcelain=v1', '--untracked-files=no'))
      .filter((l) => l[0] !== ' ')
      .map((l) => `${l[0]}  ${l.slice(3)}`),
  };
}

/** Every ref outside refs/heads (for a diagnostic: where a feature keeps its own objects). */
export function otherRefs(cwd: string): string[] {
  return lines(git(cwd, 'for-each-ref', '--format=%(refname)')).filter((r) => !r.startsWith('refs/heads/'));
}
