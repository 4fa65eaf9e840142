import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive, processName } from '../platform/processIdentity';
import { pathAgeMs } from '../platform/scratchDirs';

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
  const out: string[] = [];
  const collect = (dir: string, recurse: boolean) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && recurse) collect(p, true);
      else if (e.isFile() && e.name.endsWith('.lock')) out.push(p);
    }
  };
  collect(gitDir, false);
  collect(path.join(gitDir, 'refs'), true);
  return out;
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
