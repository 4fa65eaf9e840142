import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive, processName } from '../platform/processIdentity';
import { pathAgeMs } from '../platform/scratchDirs';
import { NO_SKIPPED_DIRS, readDirSorted, walkTree } from '../platform/treeWalk';

/** git holds a ref or config lock for milliseconds: one this old belongs to a git process that was killed outright. */
export const STALE_GIT_LOCK_MS = 10 * 60 * 1000;

/**
 * Removes what a git process killed outright (OOM killer, power loss) leaves in our shadow store and what git never
 * clears by itself: a `packed-refs.lock` makes every later ref deletion and gc fail; a `gc.pid` naming a pid that now
 * belongs to another process keeps `git gc` from running for 12 hours. A stopped gc (SIGTERM) removes its own. Never
 * used on the user's repository, whose locks may be the user's git at work.
 */
export function clearStaleGitLocks(gitDir: string): void {
  for (const lock of lockFiles(gitDir)) {
    if (pathAgeMs(lock) > STALE_GIT_LOCK_MS) fs.rmSync(lock, { force: true });
  }
  const gcPid = path.join(gitDir, 'gc.pid');
  if (isStaleGcPid(gcPid)) fs.rmSync(gcPid, { force: true });
}

/** `<gitDir>/*.lock` and the lock files under refs/. */
function lockFiles(gitDir: string): string[] {
  const top = readDirSorted(gitDir)
    .filter((e) => e.isFile() && e.name.endsWith('.lock'))
    .map((e) => path.join(gitDir, e.name));
  const refs = path.join(gitDir, 'refs');
  const underRefs = walkTree(refs, '', { skipDirNames: NO_SKIPPED_DIRS }).files.filter((rel) => rel.endsWith('.lock'));
  return [...top, ...underRefs.map((rel) => path.join(refs, rel))];
}

/** gc.pid holds "<pid> <hostname>": stale when that host is this one and the process is gone or is no git. */
function isStaleGcPid(file: string): boolean {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const m = /^(\d+) (\S+)/.exec(content);
  if (!m || m[2] !== os.hostname()) return false;
  const pid = Number(m[1]);
  if (!isProcessAlive(pid)) return true;
  const name = processName(pid);
  return name !== undefined && name !== 'git';
}
