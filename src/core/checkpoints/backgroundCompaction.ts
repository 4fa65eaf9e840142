import { newResourceId } from '../runtime/ids';
import { startJittered } from '../runtime/testJitter';

/**
 * The background `git gc` of a shadow store, one per data directory, tracked so that a session's deletion does not
 * skip the full compaction it asks for, and so that a core's exit neither hangs on it nor leaves it running unseen. A
 * compaction cut short is harmless: git removes its locks on SIGTERM, and the next one does the work again.
 */

/** Runs the store's `git gc` (`full`: not just `--auto`); the signal ends it. */
export type Compact = (full: boolean, signal: AbortSignal) => Promise<void>;

interface Compaction {
  id: number;
  controller: AbortController;
  done: Promise<void>;
}

/** A compaction while it runs, as `runtime_status` lists it. */
export interface RunningCompaction {
  /** Unique in this process. */
  id: number;
  /** Told to stop; its git has not exited yet. */
  stopping: boolean;
}

const running = new Map<string, Compaction>();

/** Starts a compaction unless one runs already. */
export function compactInBackground(key: string, full: boolean, compact: Compact): void {
  if (running.has(key)) return;
  const controller = new AbortController();
  const done = startJittered(() => compact(full, controller.signal))
    .catch(() => undefined)
    .then(() => void running.delete(key));
  running.set(key, { id: newResourceId(), controller, done });
}

/** The compaction running for `key` until its git has exited, if any. */
export function runningCompaction(key: string): RunningCompaction | undefined {
  const current = running.get(key);
  return current && { id: current.id, stopping: current.controller.signal.aborted };
}

/** Resolves once no compaction runs. */
export async function compactionSettled(key: string): Promise<void> {
  await running.get(key)?.done;
}

/** Ends the running compaction; resolves once its git has exited. */
export async function stopCompaction(key: string): Promise<void> {
  const current = running.get(key);
  if (!current) return;
  current.controller.abort(new Error('compaction stopped'));
  await current.done;
}

/** Gives a running compaction `graceMs` to finish, then ends it (the core is exiting). */
export async function finishCompaction(key: string, graceMs: number): Promise<void> {
  const current = running.get(key);
  if (!current) return;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  const finished = await Promise.race([current.done.then(() => true), expired]);
  clearTimeout(timer);
  if (!finished) await stopCompaction(key);
}
