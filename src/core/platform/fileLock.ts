// A cross-process lock file (created with O_EXCL) around a synchronous critical section.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface FileLockOptions {
  /** A lock older than this is considered abandoned and removed. Default 10 s. */
  staleMs?: number;
  /** Give up waiting after this long. Default staleMs + 5 s. */
  timeoutMs?: number;
  /** Called once when the lock is found held by someone else, before the first wait. */
  onContended?: () => void;
}

const held = new Set<string>();

/**
 * Runs `fn` while holding `lockPath`. The file holds `pid=<n> <token>`; a lock whose
 * owner process is gone, or that is older than staleMs, is broken. Blocks the thread
 * while waiting (the callers are short read-modify-writes of small files).
 */
export function withFileLockSync<T>(lockPath: string, fn: () => T, opts: FileLockOptions = {}): T {
  if (held.has(lockPath)) throw new Error(`lock ${lockPath} is already held by this process (re-entrant use)`);
  const staleMs = opts.staleMs ?? 10_000;
  const deadline = Date.now() + (opts.timeoutMs ?? staleMs + 5_000);
  const token = `pid=${process.pid} ${randomBytes(8).toString('hex')}\n`;
  let contended = false;
  while (!tryCreate(lockPath, token)) {
    if (!contended) {
      contended = true;
      opts.onContended?.();
    }
    const abandoned = abandonedLockContent(lockPath, staleMs);
    if (abandoned !== undefined) {
      removeIfUnchanged(lockPath, abandoned);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockPath}`);
    sleepSync(20);
  }
  held.add(lockPath);
  try {
    return fn();
  } finally {
    held.delete(lockPath);
    releaseIfOwned(lockPath, token);
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The content of the lock if it is abandoned (too old, or its owner process is gone), else undefined. */
function abandonedLockContent(lockPath: string, staleMs: number): string | undefined {
  let content: string;
  let mtimeMs: number;
  try {
    content = readFileSync(lockPath, 'utf8');
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch {
    return undefined; // gone already: the next tryCreate will succeed
  }
  if (Date.now() - mtimeMs > staleMs) return content;
  const m = /^pid=(\d+)/.exec(content);
  return m && !processAlive(Number(m[1])) ? content : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the abandoned lock unless another waiter already replaced it with its own
 * (each lock's content is unique). This narrows the break-vs-acquire race to the gap
 * between the read and the unlink; without flock in Node it cannot be closed entirely.
 */
function removeIfUnchanged(lockPath: string, abandoned: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === abandoned) unlinkSync(lockPath);
  } catch {
    // removed by someone else: fine
  }
}

function releaseIfOwned(lockPath: string, token: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === token) unlinkSync(lockPath);
  } catch {
    // already gone (broken as stale by another process)
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}
