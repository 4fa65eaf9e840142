// Where a bench's time goes (BENCH_PROFILE=1): the renderer's CPU profile (self time per function) and a trace of its
// main thread (time per event: script, style, layout, paint), over one stretch of the run. A development aid: the
// figures a bench reports are measured without it (profiling slows the page).
import type { CDPSession } from 'playwright-core';

export interface Profiling {
  /** Stops both and prints the top entries. */
  stopAndPrint(): Promise<void>;
}

/** `mode` 'cpu' adds the CPU profiler to the trace (which then shows its overhead too). */
export async function startProfiling(session: CDPSession, mode: string): Promise<Profiling> {
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
  await session.send('Tracing.start', {
    categories: 'devtools.timeline,blink,toplevel,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
  const cpu = mode === 'cpu';
  if (cpu) {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 500 });
    await session.send('Profiler.start');
  }
  return {
    async stopAndPrint() {
      const profile = cpu ? ((await session.send('Profiler.stop')) as { profile: CpuProfile }).profile : undefined;
      const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
      await session.send('Tracing.end');
      await done;
      if (profile) printProfile(profile);
      printTrace(events);
    },
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

function printProfile(profile: CpuProfile): void {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id)!.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`  CPU profile: ${Math.round(total)} ms sampled; top self time:`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`    ${v.toFixed(0).padStart(7)} ms  ${k}`);
}

function printTrace(events: readonly TraceEvent[]): void {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  for (const main of mains) {
    const sums = new Map<string, { ms: number; n: number }>();
    for (const e of events) {
      if (e.ph !== 'X' || e.tid !== main.tid || e.pid !== main.pid) continue;
      const s = sums.get(e.name) ?? { ms: 0, n: 0 };
      s.ms += (e.dur ?? 0) / 1000;
      s.n++;
      sums.set(e.name, s);
    }
    if (sums.size === 0) continue;
    console.log(`  trace, renderer main thread pid ${main.pid}: wall time per event (nested events count in their parents too)`);
    for (const [k, v] of [...sums].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) {
      console.log(`    ${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(6)}x  ${k}`);
    }
    printLongTasks(events.filter((e) => e.ph === 'X' && e.tid === main.tid && e.pid === main.pid));
  }
}

/** Each main-thread task over 50 ms, with the events inside it that took the most (self-nested names summed). */
function printLongTasks(events: readonly TraceEvent[]): void {
  const sorted = [...events].sort((a, b) => a.ts - b.ts);
  const tasks = sorted.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) > 50_000);
  console.log(`  tasks > 50 ms: ${tasks.length}`);
  for (const task of tasks.slice(0, 20)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of sorted) {
      if (e.ts < task.ts || e.ts >= end || e === task) continue;
      inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`    ${((task.dur ?? 0) / 1000).toFixed(0)} ms: ${top.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  }
}
