import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function writeAllSync(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
}

/** Makes a rename in `dir` durable. Directories cannot be opened for fsync on Windows; skipped there. */
export function fsyncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Best effort: some filesystems refuse fsync on directories.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function existingMode(target: string): number | undefined {
  try {
    return fs.statSync(target).mode & 0o777;
  } catch {
    return undefined;
  }
}

/**
 * Replaces `target` with `data` so that a crash leaves either the old or the new content:
 * write a sibling temp file, fsync it, rename it over the target, fsync the directory.
 * The temp name starts with '.' and ends with '.tmp' so directory listings never mistake it for data.
 */
export function writeFileAtomic(target: string, data: string | Buffer, newFileMode = 0o600): void {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', existingMode(target) ?? newFileMode);
  try {
    writeAllSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirectory(dir);
}
