/**
 * Reading one candidate rules file, or the reason it is skipped: a restricted path (.env, .ssh…, itself or through a
 * symlink — the agent's read_file of it would need approval, so the prompt must not carry it unasked), a symlink out of
 * the workspace, not a regular file, binary. Contents are kept with the file's stat, so an unchanged file is not re-read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRestrictedPath, toWorkspaceRelative } from '../platform/workspace';

export type ReadOutcome =
  { ok: true; real: string; bytes: Buffer } | { ok: false; reason: 'restricted' | 'outside_workspace' | 'unreadable' | 'binary' };

interface CachedFile {
  mtimeMs: number;
  size: number;
  ino: number;
  bytes: Buffer;
}

/** Reads at most this much of a file: far more than any cap, so a huge file is never read whole. */
export const MAX_READ_BYTES = 1_048_576;

export class RulesFileReader {
  private readonly cache = new Map<string, CachedFile>();

  constructor(private readonly root: string) {}

  async read(rel: string): Promise<ReadOutcome> {
    if (isRestrictedPath(rel)) return { ok: false, reason: 'restricted' };
    const abs = path.join(this.root, rel);
    let real: string;
    try {
      real = await fs.promises.realpath(abs);
    } catch {
      return { ok: false, reason: 'unreadable' };
    }
    if (real !== this.root && !real.startsWith(this.root + path.sep)) return { ok: false, reason: 'outside_workspace' };
    if (isRestrictedPath(toWorkspaceRelative(this.root, real))) return { ok: false, reason: 'restricted' };
    const bytes = await this.contents(real);
    if (!bytes) return { ok: false, reason: 'unreadable' };
    if (bytes.includes(0)) return { ok: false, reason: 'binary' };
    return { ok: true, real, bytes };
  }

  /** Forgets the files not read in the last refresh. */
  keepOnly(reals: ReadonlySet<string>): void {
    for (const key of this.cache.keys()) if (!reals.has(key)) this.cache.delete(key);
  }

  /** The file's bytes, with `size` the size on disk (the buffer stops at MAX_READ_BYTES). */
  sizeOf(real: string): number | undefined {
    return this.cache.get(real)?.size;
  }

  private async contents(real: string): Promise<Buffer | undefined> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(real);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = this.cache.get(real);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size && cached.ino === stat.ino) return cached.bytes;
    const bytes = await readHead(real, Math.min(stat.size, MAX_READ_BYTES));
    if (!bytes) return undefined;
    this.cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, bytes });
    return bytes;
  }
}

async function readHead(file: string, length: number): Promise<Buffer | undefined> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
