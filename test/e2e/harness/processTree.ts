import { readFileSync, readdirSync } from 'node:fs';

/** Linux /proc: the pid → parent pid map of every process visible to us. */
function parentMap(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the ppid; the command (field 2) may hold spaces and parens, so split after its last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
    } catch {
      // the process ended while we read
    }
  }
  return parents;
}

export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every live descendant of `root` (children, grandchildren, …). */
export function descendantsOf(root: number): number[] {
  const parents = parentMap();
  const out: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        out.push(pid);
        frontier.push(pid);
      }
    }
  }
  return out;
}

/** The embedded core processes (`node …/dist/core.js`) started under `root` (code-server or VS Code). */
export function corePidsUnder(root: number): number[] {
  return descendantsOf(root).filter((pid) => /(^|[\s/])dist\/core\.js(\s|$)/.test(commandLineOf(pid)));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The environment a process was started with (/proc/<pid>/environ), or undefined when it cannot be read. */
export function environmentOf(pid: number): Record<string, string> | undefined {
  try {
    const env: Record<string, string> = {};
    for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
      const eq = entry.indexOf('=');
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    return env;
  } catch {
    return undefined;
  }
}
