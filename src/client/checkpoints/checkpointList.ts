import type { CheckpointEntry, CheckpointFileChange } from './checkpointEvents';

/**
 * One folder's checkpoints, newest first, and what is known of each one's differences from the working tree (undefined
 * until a `checkpoint_changes` answer came, or forever with a core that cannot tell). Mutations return whether anything
 * visible changed, so the view redraws only then.
 */
export class CheckpointList {
  private entries: CheckpointEntry[] = [];
  private readonly changes = new Map<string, readonly CheckpointFileChange[]>();

  get all(): readonly CheckpointEntry[] {
    return this.entries;
  }

  get size(): number {
    return this.entries.length;
  }

  get(id: string): CheckpointEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  newest(): CheckpointEntry | undefined {
    return this.entries[0];
  }

  /** The ids of the `limit` newest checkpoints. */
  newestIds(limit: number): string[] {
    return this.entries.slice(0, Math.max(0, limit)).map((e) => e.id);
  }

  changesOf(id: string): readonly CheckpointFileChange[] | undefined {
    return this.changes.get(id);
  }

  /** A full list from the core (already newest first). Known changes of the checkpoints still listed are kept. */
  setList(entries: readonly CheckpointEntry[]): boolean {
    const same = entries.length === this.entries.length && entries.every((e, i) => sameEntry(e, this.entries[i]));
    const live = new Set(entries.map((e) => e.id));
    for (const id of [...this.changes.keys()]) if (!live.has(id)) this.changes.delete(id);
    if (same) return false;
    this.entries = [...entries];
    return true;
  }

  /** A checkpoint just created (`checkpoint_created`): inserted by time, or merged into the listed one. */
  upsert(entry: CheckpointEntry): boolean {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) {
      const merged: CheckpointEntry = { ...this.entries[index], ...definedFields(entry) };
      if (sameEntry(merged, this.entries[index])) return false;
      this.entries = this.entries.map((e, i) => (i === index ? merged : e));
      return true;
    }
    const at = this.entries.findIndex((e) => (e.createdAt ?? 0) < (entry.createdAt ?? Number.MAX_SAFE_INTEGER));
    this.entries = at < 0 ? [...this.entries, entry] : [...this.entries.slice(0, at), entry, ...this.entries.slice(at)];
    return true;
  }

  remove(id: string): boolean {
    this.changes.delete(id);
    const next = this.entries.filter((e) => e.id !== id);
    if (next.length === this.entries.length) return false;
    this.entries = next;
    return true;
  }

  /** Ignored for a checkpoint not in the list (deleted meanwhile). */
  setChanges(id: string, files: readonly CheckpointFileChange[]): boolean {
    if (!this.get(id)) return false;
    const previous = this.changes.get(id);
    if (previous && sameChanges(previous, files)) return false;
    this.changes.set(id, [...files]);
    return true;
  }

  /** Every known comparison is stale (a restore rewrote the working tree). Returns whether any was known. */
  forgetChanges(): boolean {
    const had = this.changes.size > 0;
    this.changes.clear();
    return had;
  }

  clear(): boolean {
    const had = this.entries.length > 0;
    this.entries = [];
    this.changes.clear();
    return had;
  }
}

function definedFields(entry: CheckpointEntry): Partial<CheckpointEntry> {
  const out: Partial<CheckpointEntry> = {};
  for (const [k, v] of Object.entries(entry)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function sameEntry(a: CheckpointEntry, b: CheckpointEntry | undefined): boolean {
  return (
    b !== undefined &&
    a.id === b.id &&
    a.label === b.label &&
    a.createdAt === b.createdAt &&
    a.kind === b.kind &&
    a.auto === b.auto &&
    a.runId === b.runId &&
    a.maxFileBytes === b.maxFileBytes &&
    sameStrings(a.paths, b.paths) &&
    sameStrings(a.skipped, b.skipped)
  );
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameChanges(a: readonly CheckpointFileChange[], b: readonly CheckpointFileChange[]): boolean {
  return a.length === b.length && a.every((x, i) => x.path === b[i].path && x.status === b[i].status);
}
