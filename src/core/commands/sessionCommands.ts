import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { deleteSessionFiles, isSessionFileName, listSessions, writeSessionMeta } from '../sessions/sessionIndex';
import { nanosSessionName } from '../sessions/sessionPaths';
import { cancelActive } from '../app/turns';
import { emitHistory, emitRecovered } from './sessionEvents';

/** Leaves room for the sidecars' suffixes (`.meta.json`, `.checkpoints.jsonl`) under the usual 255-byte name limit. */
const MAX_SESSION_NAME_BYTES = 200;

export function handleReset(rt: CoreRuntime, wipeFile: boolean): void {
  cancelActive(rt, wipeFile ? 'reset' : 'clear');
  rt.runs.queued = undefined;
  if (wipeFile) rt.conversation.replace([], []);
  else rt.conversation.clearInMemory();
  rt.todos = [];
  rt.loadedTools.clear();
  rt.emit({ type: 'reset' });
  rt.goal.clear();
}

export function handleListSessions(rt: CoreRuntime): void {
  const dir = currentDir(rt);
  const sessions = listSessions(dir, rt.conversation.path);
  rt.emit({ type: 'sessions', sessions, files: sessions.map((s) => s.path) });
}

export function handleNewSession(rt: CoreRuntime, cmd: CommandOf<'new_session'>): void {
  const name = typeof cmd.path === 'string' && cmd.path ? cmd.path : nanosSessionName();
  if (name.includes('/') || name.includes('\\') || name.includes('..') || name.includes('\0')) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'new_session path must be a file name, not a path' });
    return;
  }
  if (Buffer.byteLength(name) > MAX_SESSION_NAME_BYTES) {
    rt.emit({
      type: 'error',
      code: 'invalid_command',
      message: `new_session path must be a file name of at most ${MAX_SESSION_NAME_BYTES} bytes`,
    });
    return;
  }
  const path = join(currentDir(rt), name.endsWith('.jsonl') ? name : `${name}.jsonl`);
  cancelActive(rt, 'new_session');
  rt.runs.queued = undefined;
  rt.switchSession(path);
  rt.emit({ type: 'session_changed', path, new: true });
  rt.emit({ type: 'reset' });
  rt.goal.clear();
  rt.emit({ type: 'info', message: `started new session: ${path}` });
}

export function handleLoadSession(rt: CoreRuntime, cmd: CommandOf<'load_session'>): void {
  if (typeof cmd.path !== 'string' || !cmd.path)
    return void rt.emit({ type: 'error', code: 'invalid_command', message: 'load_session needs a path' });
  const path = isAbsolute(cmd.path) ? resolve(cmd.path) : resolve(currentDir(rt), cmd.path);
  if (!existsSync(path) || !isSessionFileName(basename(path))) {
    rt.emit({ type: 'session_change_failed', path, message: `no session file at ${path}` });
    return;
  }
  if (!inSessionDirs(rt, path)) {
    rt.emit({ type: 'session_change_failed', path, message: `${path} is not in this workspace's sessions folder` });
    return;
  }
  cancelActive(rt, 'load_session');
  rt.runs.queued = undefined;
  const loaded = rt.switchSession(path);
  rt.emit({ type: 'session_changed', path, new: false });
  rt.emit({ type: 'reset' });
  rt.goal.clear();
  if (loaded) emitRecovered(rt, loaded);
  emitHistory(rt);
}

export function handleRenameSession(rt: CoreRuntime, cmd: CommandOf<'rename_session'>): void {
  const path = sessionPath(rt, cmd.path);
  if (!path) return;
  const title = String(cmd.title ?? '')
    .trim()
    .slice(0, 200);
  writeSessionMeta(path, { title });
  rt.emit({ type: 'session_renamed', path, title });
}

export function handlePinSession(rt: CoreRuntime, cmd: CommandOf<'pin_session'>): void {
  const path = sessionPath(rt, cmd.path);
  if (!path) return;
  const pinned = cmd.pinned !== false;
  writeSessionMeta(path, { pinned });
  rt.emit({ type: 'session_pinned', path, pinned });
}

export async function handleDeleteSession(rt: CoreRuntime, cmd: CommandOf<'delete_session'>): Promise<void> {
  const path = sessionPath(rt, cmd.path);
  if (!path) return;
  if (rt.conversation.path && resolve(rt.conversation.path) === path) {
    rt.emit({ type: 'error', code: 'session_active', message: 'cannot delete the active session; start or load another first' });
    return;
  }
  // Its checkpoints go with it: refs deleted (their objects become unreachable) before the index file is removed.
  await rt.pruneSessionCheckpoints(path).catch((err: Error) => rt.log(`pruning the checkpoints of ${path} failed: ${err.message}`));
  deleteSessionFiles(path);
  rt.emit({ type: 'session_deleted', path });
}

function currentDir(rt: CoreRuntime): string {
  return rt.conversation.path ? dirname(rt.conversation.path) : rt.sessionsDir;
}

/**
 * Resolves a session path argument against the current session's directory; only existing session files directly in
 * this workspace's sessions folder (or the folder of the session the core runs, which `--session` may have put
 * elsewhere) qualify: a client's path must not make the core rename, pin or delete any `.jsonl` file on the disk.
 */
function sessionPath(rt: CoreRuntime, raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !raw) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'a session path is required' });
    return undefined;
  }
  const path = isAbsolute(raw) ? resolve(raw) : resolve(currentDir(rt), raw);
  if (!isSessionFileName(basename(path)) || !existsSync(path)) {
    rt.emit({ type: 'error', code: 'not_found', message: `no session file at ${path}` });
    return undefined;
  }
  if (!inSessionDirs(rt, path)) {
    rt.emit({ type: 'error', code: 'invalid_command', message: `${path} is not in this workspace's sessions folder` });
    return undefined;
  }
  return path;
}

/** The only folders whose sessions the commands act on: load_session keeps the current one among them. */
function inSessionDirs(rt: CoreRuntime, path: string): boolean {
  const dir = dirname(path);
  return dir === resolve(rt.sessionsDir) || dir === resolve(currentDir(rt));
}
