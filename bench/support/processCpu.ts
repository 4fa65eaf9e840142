// CPU time of the processes behind a code-server launch, from Linux /proc/<pid>/stat (utime + stime): a figure that,
// unlike wall-clock latency, does not grow with the load other processes put on the machine.
import { readFileSync } from 'node:fs';
import type { E2eEnv } from '../../test/e2e/harness/e2eEnv';
import { commandLineOf, corePidsUnder, descendantsOf } from '../../test/e2e/harness/processTree';

export const CPU_GROUPS = ['extension host', 'core', 'code-server (rest)', 'chromium renderers', 'chromium (rest)'] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number];
export type CpuTicks = Record<CpuGroup, number>;
const TICKS_PER_SECOND = 100;

/** The pids of each group now (the core and the renderers can change between launches, not within one). */
export function processGroups(env: E2eEnv): Map<CpuGroup, number[]> {
  const server = env.workbench.rootPid;
  const underServer = [server, ...descendantsOf(server)];
  const cores = new Set(corePidsUnder(server));
  const hosts = underServer.filter((pid) => !cores.has(pid) && /extensionHost/.test(commandLineOf(pid)));
  const browser = descendantsOf(process.pid).filter((pid) => !underServer.includes(pid) && /chrom/i.test(commandLineOf(pid)));
  const renderers = browser.filter((pid) => /--type=renderer/.test(commandLineOf(pid)));
  return new Map<CpuGroup, number[]>([
    ['extension host', hosts],
    ['core', [...cores]],
    ['code-server (rest)', underServer.filter((pid) => !cores.has(pid) && !hosts.includes(pid))],
    ['chromium renderers', renderers],
    ['chromium (rest)', browser.filter((pid) => !renderers.includes(pid))],
  ]);
}

/** utime + stime summed per group; a process that ended counts 0. */
export function ticksOf(groups: Map<CpuGroup, number[]>): CpuTicks {
  const out = {} as CpuTicks;
  for (const [group, pids] of groups) out[group] = pids.reduce((sum, pid) => sum + ticks(pid), 0);
  return out;
}

/** CPU seconds per group between two readings. */
export function cpuSecondsBetween(before: CpuTicks, after: CpuTicks): CpuTicks {
  const out = {} as CpuTicks;
  for (const group of CPU_GROUPS) out[group] = (after[group] - before[group]) / TICKS_PER_SECOND;
  return out;
}

function ticks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
