import fs from 'node:fs';

/** Whether a process with this pid exists (one we may not signal counts). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process started, as Linux's /proc/<pid>/stat `starttime` (clock ticks since boot): with the pid it names one
 * process, not whichever reuses the pid later. Undefined where /proc cannot tell (other systems, a gone process).
 */
export function processStartTicks(pid: number): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces; starttime is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[22 - 3];
  return ticks && /^\d+$/.test(ticks) ? ticks : undefined;
}

/** The process's command name (Linux /proc/<pid>/comm), or undefined where /proc cannot tell. */
export function processName(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
