import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive, processStartTicks } from './processIdentity';

/**
 * Scratch directories of a snapshot (temporary index, staging repo) are named `<prefix><pid>-<start>-XXXXXX` after the
 * core that made them: its pid and, where the system tells (Linux), its start time. A core killed half-way leaves
 * something the next core recognises as abandoned, without touching the scratch of another core alive and working on
 * the same workspace (two windows). A pid alone proves nothing once it is reused by an unrelated process: the start time
 * tells them apart, and where it cannot be read, age does.
 */

/** No snapshot or restore keeps its scratch this long: older scratch is abandoned whoever's pid it names. */
export const SCRATCH_ABANDONED_AFTER_MS = 12 * 60 * 60 * 1000;

/** `<pid>-` or `<pid>-<start>-`, then mkdtemp's six letters and digits. */
const SCRATCH_TAG = /^(\d+)-(?:(\d+)-)?[A-Za-z0-9]{6}$/;

const ownStart = processStartTicks(process.pid);

/** The tag this process gives its scratch directories. */
export function ownScratchTag(): string {
  return ownStart === undefined ? `${process.pid}` : `${process.pid}-${ownStart}`;
}

/** Makes a scratch directory, sweeping abandoned ones first (but those `leave` says are for someone else to settle). */
export function makeScratchDir(parent: string, prefix: string, leave?: (dir: string) => boolean): string {
  fs.mkdirSync(parent, { recursive: true });
  for (const dir of abandonedScratch(parent, prefix)) if (!leave?.(dir)) removeScratchDir(dir);
  return fs.mkdtempSync(path.join(parent, `${prefix}${ownScratchTag()}-`));
}

/** Removes the `<prefix>*` directories whose core is gone (and untagged ones from before this naming). */
export function sweepAbandonedScratch(parent: string, prefix: string): void {
  for (const dir of abandonedScratch(parent, prefix)) removeScratchDir(dir);
}

/** The `<prefix>*` directories in `parent` whose core is gone. */
export function abandonedScratch(parent: string, prefix: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && isAbandoned(path.join(parent, name), name.slice(prefix.length)))
    .map((name) => path.join(parent, name));
}

export function removeScratchDir(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Left for the next sweep (a file held open on Windows, a permission problem): never fails the caller.
  }
}

function isAbandoned(dir: string, tag: string): boolean {
  const gone = tagOwnerGone(tag);
  if (gone === undefined) return true;
  return pathAgeMs(dir) > SCRATCH_ABANDONED_AFTER_MS || gone;
}

/**
 * Whether the core a tag (`<pid>-` or `<pid>-<start>-`, then six letters and digits) names has ended: its pid now runs
 * another start time, or (where the start time cannot be read) no process has it. Undefined for a name that is no tag.
 */
export function tagOwnerGone(tag: string): boolean | undefined {
  const m = SCRATCH_TAG.exec(tag);
  if (!m) return undefined;
  const pid = Number(m[1]);
  const start = m[2];
  if (pid === process.pid) return start !== ownStart;
  const actualStart = start === undefined ? undefined : processStartTicks(pid);
  if (actualStart !== undefined) return actualStart !== start;
  return !isProcessAlive(pid);
}

/** Since the last change of the file or directory (0 when it is gone). */
export function pathAgeMs(p: string): number {
  try {
    return Date.now() - fs.lstatSync(p).mtimeMs;
  } catch {
    return 0;
  }
}
