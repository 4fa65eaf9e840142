// The adapter's copy of an SCV session's queue, kept from `queue.*` events only (never from local input): the server
// owns the queue, and each operation on an entry must name the revision last seen.
import type { ServerQueueView } from '../../../shared/sessionState';

export interface MirroredEntry {
  id: string;
  revision: number;
  prompt: string;
}

export class QueueMirror {
  private entries: MirroredEntry[] = [];
  private paused = false;

  get(id: string): MirroredEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  get size(): number {
    return this.entries.length;
  }

  all(): readonly MirroredEntry[] {
    return this.entries;
  }

  replace(entries: readonly MirroredEntry[], paused: boolean): void {
    this.entries = entries.map((e) => ({ ...e }));
    this.paused = paused;
  }

  /** A queued entry at its index (the end when the index is not a valid one); an entry already known is replaced. */
  insert(entry: MirroredEntry, position: number | undefined): void {
    const rest = this.entries.filter((e) => e.id !== entry.id);
    const at = position !== undefined && Number.isInteger(position) && position >= 0 && position <= rest.length ? position : rest.length;
    rest.splice(at, 0, { ...entry });
    this.entries = rest;
  }

  /** A changed entry; false when it is not in the mirror. */
  update(entry: MirroredEntry): boolean {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index < 0) return false;
    this.entries = this.entries.map((e, i) => (i === index ? { ...entry } : e));
    return true;
  }

  /** Moves an entry to its new index with its new revision; false when it is not in the mirror. */
  move(id: string, position: number | undefined, revision: number | undefined): boolean {
    const entry = this.get(id);
    if (!entry) return false;
    this.insert({ ...entry, revision: revision ?? entry.revision }, position);
    return true;
  }

  /** Drops an entry and returns it; undefined when it is not in the mirror. */
  remove(id: string): MirroredEntry | undefined {
    const entry = this.get(id);
    if (entry) this.entries = this.entries.filter((e) => e !== entry);
    return entry;
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
  }

  clear(): void {
    this.entries = [];
  }

  view(): ServerQueueView {
    return { entries: this.entries.map((e) => ({ id: e.id, revision: e.revision, prompt: e.prompt })), paused: this.paused };
  }
}
