import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from '../platform/fileStat';

export interface PlannedWrite {
  /** Target, relative to the plan's root, '/'-separated. */
  rel: string;
  /** File (or symlink) holding the content to install. */
  source: string;
  /** Permission bits to give the installed regular file. */
  mode?: number;
}

export interface FilePlan {
  writes: PlannedWrite[];
  deletes: string[];
}

export interface ApplyOptions {
  /** An empty directory, ideally on the same filesystem as the root, for staged copies and backups. */
  scratchDir: string;
  /** Sources are already private staged files and may be moved instead of copied. */
  consumeSources: boolean;
}

export interface AppliedPlan {
  written: string[];
  removed: string[];
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function copyEntry(src: string, dst: string): void {
  const st = fs.lstatSync(src);
  if (st.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(src), dst);
    return;
  }
  fs.copyFileSync(src, dst);
  fs.chmodSync(dst, st.mode & 0o7777);
}

function moveEntry(src: string, dst: string): void {
  try {
    fs.renameSync(src, dst);
  } catch (err) {
    if (errorCode(err) !== 'EXDEV') throw err;
    copyEntry(src, dst);
    fs.rmSync(src, { force: true });
  }
}

/** Replaces `target` in one rename; across filesystems via a temp file beside the target. */
function installEntry(staged: string, target: string): void {
  try {
    fs.renameSync(staged, target);
  } catch (err) {
    if (errorCode(err) !== 'EXDEV') throw err;
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(4).toString('hex')}.tmp`);
    copyEntry(staged, tmp);
    fs.renameSync(tmp, target);
  }
}

/** Keeps the current content reachable while the target is replaced: a hard link, else a copy. */
function backupEntry(target: string, backup: string): void {
  try {
    fs.linkSync(target, backup);
  } catch {
    copyEntry(target, backup);
  }
}

function removeDirIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty (or already gone): leave it
  }
}

class UndoLog {
  private readonly steps: (() => void)[] = [];

  push(step: () => void): void {
    this.steps.push(step);
  }

  /** Runs every step, newest first; returns the messages of steps that failed. */
  rollback(): string[] {
    const failures: string[] = [];
    for (const step of this.steps.reverse()) {
      try {
        step();
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    return failures;
  }
}

class PlanApplier {
  private readonly undo = new UndoLog();
  private readonly written: string[] = [];
  private readonly removed: string[] = [];

  constructor(
    private readonly root: string,
    private readonly opts: ApplyOptions,
  ) {}

  apply(plan: FilePlan): AppliedPlan {
    try {
      const staged = plan.writes.map((w, i) => this.stage(w, i));
      plan.deletes.forEach((rel, i) => this.remove(rel, i));
      this.pruneEmptyParents(this.removed);
      plan.writes.forEach((w, i) => this.install(w.rel, staged[i], i));
    } catch (err) {
      const failures = this.undo.rollback();
      const detail = failures.length ? `; rollback also failed: ${failures.join('; ')}` : '';
      throw new Error(`restore failed and was rolled back: ${(err as Error).message}${detail}`, { cause: err });
    }
    return { written: this.written, removed: this.removed };
  }

  private stage(w: PlannedWrite, i: number): string {
    const staged = this.opts.consumeSources ? w.source : path.join(this.opts.scratchDir, `w${i}`);
    if (!this.opts.consumeSources) copyEntry(w.source, staged);
    if (w.mode !== undefined && !fs.lstatSync(staged).isSymbolicLink()) fs.chmodSync(staged, w.mode);
    return staged;
  }

  private remove(rel: string, i: number): void {
    const target = path.join(this.root, rel);
    const st = lstatOrUndefined(target);
    if (!st || st.isDirectory()) return;
    const backup = path.join(this.opts.scratchDir, `d${i}`);
    moveEntry(target, backup);
    this.undo.push(() => moveEntry(backup, target));
    this.removed.push(rel);
  }

  private pruneEmptyParents(rels: string[]): void {
    for (const rel of rels) {
      let dir = path.dirname(path.join(this.root, rel));
      while (dir !== this.root && dir.startsWith(this.root + path.sep)) {
        try {
          fs.rmdirSync(dir);
        } catch {
          break;
        }
        const removedDir = dir;
        this.undo.push(() => fs.mkdirSync(removedDir, { recursive: true }));
        dir = path.dirname(dir);
      }
    }
  }

  private ensureParentDirs(rel: string): void {
    let current = this.root;
    for (const part of rel.split('/').slice(0, -1)) {
      current = path.join(current, part);
      const st = lstatOrUndefined(current);
      if (!st) {
        fs.mkdirSync(current);
        const created = current;
        this.undo.push(() => removeDirIfEmpty(created));
      } else if (!st.isDirectory()) {
        throw new Error(`cannot restore ${rel}: ${path.relative(this.root, current)} is not a directory`);
      }
    }
  }

  private install(rel: string, staged: string, i: number): void {
    const target = path.join(this.root, rel);
    this.ensureParentDirs(rel);
    const st = lstatOrUndefined(target);
    if (st?.isDirectory()) {
      try {
        fs.rmdirSync(target);
      } catch {
        throw new Error(`cannot restore ${rel}: a non-empty directory is in the way`);
      }
      this.undo.push(() => fs.mkdirSync(target));
    } else if (st) {
      const backup = path.join(this.opts.scratchDir, `b${i}`);
      backupEntry(target, backup);
      this.undo.push(() => fs.renameSync(backup, target));
    } else {
      this.undo.push(() => fs.rmSync(target, { force: true }));
    }
    installEntry(staged, target);
    this.written.push(rel);
  }
}

/**
 * Applies deletions then writes under `root`, each file replaced by a single rename. On any failure every
 * step already taken is undone (originals come back from backups in the scratch directory) and it throws.
 */
export function applyFilePlan(root: string, plan: FilePlan, opts: ApplyOptions): AppliedPlan {
  return new PlanApplier(path.resolve(root), opts).apply(plan);
}
