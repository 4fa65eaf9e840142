import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isSessionFileName, timestampedSessionName } from '../../protocol/sessionLayout';

/** The most recently modified conversation file in a sessions directory (checkpoint indexes excluded), if any. */
export function newestSessionFile(sessionsDir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return undefined;
  }
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const name of names.filter(isSessionFileName)) {
    const file = path.join(sessionsDir, name);
    try {
      const st = statSync(file);
      if (st.isFile() && (!newest || st.mtimeMs > newest.mtimeMs)) newest = { file, mtimeMs: st.mtimeMs };
    } catch {
      // Deleted between readdir and stat.
    }
  }
  return newest?.file;
}

/** The session a client starts with: the newest one (as the upstream TUI resumes), else a new TUI-style name. */
export function sessionFileToResume(sessionsDir: string, now?: Date): string {
  return newestSessionFile(sessionsDir) ?? path.join(sessionsDir, timestampedSessionName(now));
}
