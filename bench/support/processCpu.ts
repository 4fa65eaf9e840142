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

/** The whole machine's CPU (all cores, /proc/stat) and this Node process's own (the bench's scripted server and proxy). */
export interface MachineTicks {
  busy: number;
  total: number;
  bench: number;
}

export function machineTicks(): MachineTicks {
  const { user, system } = process.cpuUsage();
  const bench = ((user + system) / 1e6) * TICKS_PER_SECOND;
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    const idle = cpu[3] + cpu[4];
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total, bench };
  } catch {
    return { busy: NaN, total: NaN, bench };
  }
}

/**
 * How busy the machine was between two readings, and how much of that was not this bench's processes (`ours`: the CPU
 * seconds of the groups above): the other engineers' test runs, which the load average only hints at.
 */
export function machineLine(before: MachineTicks, after: MachineTicks, ours: CpuTicks): string {
  const seconds = (n: number) => `${(n / TICKS_PER_SECOND).toFixed(1)} s`;
  const capacity = after.total - before.total;
  const busy = after.busy - before.busy;
  const bench = after.bench - before.bench;
  const launched = CPU_GROUPS.reduce((sum, g) => sum + ours[g], 0) * TICKS_PER_SECOND;
  const others = busy - launched - bench;
  return (
    `  machine while streaming     : ${seconds(busy)} busy of ${seconds(capacity)} (all cores); ` +
    `the launch above ${seconds(launched)}, this bench process (model server, proxy) ${seconds(bench)}, everything else ${seconds(Math.max(0, others))}`
  );
}
