/** Writing a file so readers never see it half-written: a temp file in the same directory, fsync, rename over. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes `content` (UTF-8) to `abs`, keeping an existing file's permission bits. The parent directory must exist. */
export async function writeFileAtomic(abs: string, content: string): Promise<void> {
  const mode = await existingMode(abs);
  const temp = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
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
