/**
 * A small JSON state file in the user's config dir, shared by every core on the machine: read whole, changed by a
 * read-modify-write under a lock file, written atomically. A missing file reads as empty; a malformed one too, but it
 * is kept as `<file>.bad` before the first write replaces it, so nothing the user had is lost.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from './atomicWrite';
import { withFileLockSync } from './fileLock';

export class LockedJsonFile<T> {
  constructor(
    readonly path: string,
    /** The lock file next to it. */
    private readonly lockPath: string,
    /** The data from the parsed JSON (any shape) — or throws when it is not usable. */
    private readonly fromJson: (raw: unknown) => T,
    private readonly empty: () => T,
  ) {}

  read(): T {
    return this.readChecked().data;
  }

  /** Applies `change` to the current content and writes it; throws when the file cannot be written. */
  update(change: (data: T) => void): T {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    return withFileLockSync(this.lockPath, () => {
      const { data, malformed } = this.readChecked();
      if (malformed) copyFileSync(this.path, `${this.path}.bad`);
      change(data);
      writeFileAtomicSync(this.path, JSON.stringify(data, null, 2) + '\n');
      return data;
    });
  }

  private readChecked(): { data: T; malformed: boolean } {
    if (!existsSync(this.path)) return { data: this.empty(), malformed: false };
    try {
      return { data: this.fromJson(JSON.parse(readFileSync(this.path, 'utf8'))), malformed: false };
    } catch {
      return { data: this.empty(), malformed: true };
    }
  }
}
