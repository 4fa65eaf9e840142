/** Writing a file so readers never see it half-written: a temp file in the same directory, fsync, rename over. */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes `content` (UTF-8) to `abs`, keeping an existing file's permission bits. The parent directory must exist. */
export async function writeFileAtomic(abs: string, content: string): Promise<void> {
  const mode = await existingMode(abs);
  const temp = tempPath(abs);
  try {
    const handle = await fs.open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(content, 'utf8');
      // The umask may have stripped bits of the original mode; restore them exactly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, abs);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

async function existingMode(abs: string): Promise<number | undefined> {
  try {
    const stats = await fs.stat(abs);
    if (stats.isDirectory()) throw Object.assign(new Error(`${abs} is a directory`), { code: 'EISDIR' });
    return stats.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function writeAllSync(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += fsSync.writeSync(fd, data, offset, data.length - offset);
}

/** Makes a rename in `dir` durable. Directories cannot be opened for fsync on Windows; skipped there. */
export function fsyncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = fsSync.openSync(dir, 'r');
    fsSync.fsyncSync(fd);
  } catch {
    // Best effort: some filesystems refuse fsync on directories.
  } finally {
    if (fd !== undefined) fsSync.closeSync(fd);
  }
}

function existingModeSync(target: string): number | undefined {
  try {
    return fsSync.statSync(target).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** A sibling of `target` no other writer picks: it starts with '.' and ends with '.tmp', so listings never take it for data. */
function tempPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export interface AtomicWriteOptions {
  /** Permission bits of a new file (an existing one keeps its own); default 0o600. */
  newFileMode?: number;
  /** Permission bits the file gets whatever it had, exactly (the umask cannot narrow them): a config file's 0o600. */
  mode?: number;
}

/**
 * Replaces `target` with `data` so that a crash leaves either the old or the new content: create the directory, write a
 * sibling temp file, fsync it, rename it over the target, fsync the directory.
 */
export function writeFileAtomicSync(target: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(target);
  fsSync.mkdirSync(dir, { recursive: true });
  const tmp = tempPath(target);
  const fd = fsSync.openSync(tmp, 'wx', options.mode ?? existingModeSync(target) ?? options.newFileMode ?? 0o600);
  try {
    writeAllSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (options.mode !== undefined) fsSync.fchmodSync(fd, options.mode);
    fsSync.fsyncSync(fd);
  } catch (err) {
    fsSync.closeSync(fd);
    fsSync.rmSync(tmp, { force: true });
    throw err;
  }
  fsSync.closeSync(fd);
  try {
    fsSync.renameSync(tmp, target);
  } catch (err) {
    fsSync.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirectory(dir);
}
