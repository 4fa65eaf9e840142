// Development aid (not a test): the webview's own cost of N children streaming into expanded rows, in plain Chromium
// (the component harness: no workbench sharing the main thread), as renderer main-thread CPU from a trace.
//   node --import tsx webview/dev/subagentsPerf.ts [children=8] [seconds=8]
import { startWebviewHarness } from '../../test/webview/harness/webviewPage';
import { childReply, runningState, subagentRun } from '../../test/webview/harness/states';
import type { TranscriptItem } from '../../src/shared/sessionState';

const children = Number(process.argv[2] ?? 8);
const seconds = Number(process.argv[3] ?? 8);

function state() {
  const items: TranscriptItem[] = [
    { kind: 'user', id: 'u1', text: 'Write the report with workers', images: 0 },
    { kind: 'tool', id: 'sub1', runId: 'r1', name: 'subagent', args: '{"tasks":[]}', status: 'running', files: [] },
    subagentRun('run-1', '', `parallel (${children} tasks)`, { mode: 'parallel', agents: [], phase: 'start' }),
  ];
  for (let i = 0; i < children; i++)
    items.push(subagentRun(`run-1-${i}`, 'worker', `[child-${i}] write your part`, { parentRunId: 'run-1' }));
  for (let i = 0; i < children; i++) items.push(childReply(`run-1-${i}`, 0, '', true));
  return runningState(items);
}

async function main(): Promise<void> {
  const harness = await startWebviewHarness({ chromiumArgs: ['--enable-precise-memory-info'] });
  try {
    const webview = await harness.open({ viewport: { width: 420, height: 900 } });
    const { page } = webview;
    const s = state();
    await webview.snapshot(s);
    const rows = page.locator('[data-testid=subagent-row] summary');
    await rows.nth(children - 1).waitFor();
    for (let i = 0; i < children; i++) await rows.nth(i).click();
    const first = s.items.length - children;
    await harness.browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'blink'] });
    const result = await page.evaluate(
      async ({ first, children, seconds }) => {
        const words = ['child', 'stream', 'delta', 'frame', 'row', 'patch', 'panel', 'token', 'budget', 'subagent'];
        let doc = '';
        for (let p = 0; doc.length < 10_000; p++)
          doc += `${p % 6 === 0 ? `### Part ${p / 6 + 1}\n\n` : ''}${Array.from({ length: 24 }, (_, w) => words[(p + w) % words.length]).join(' ')} with **bold** and \`code\`.\n\n`;
        const longTasks: number[] = [];
        new PerformanceObserver((l) => longTasks.push(...l.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
        // The harness's snapshot was seq 1: the store drops a batch that does not follow on, so the patches start at 2.
        let seq = 2;
        (globalThis as any).__host.send({ type: 'patches', seq: seq++, patches: [] });
        const start = performance.now();
        let sent = 0;
        await new Promise<void>((resolve) => {
          const timer = setInterval(() => {
            const due = Math.floor(((performance.now() - start) / 1000) * 250 * 4);
            if (due <= sent) return;
            const patches = [];
            for (let c = 0; c < children; c++) patches.push({ op: 'append', index: first + c, field: 'text', text: doc.slice(sent, due) });
            sent = due;
            (globalThis as any).__host.send({ type: 'patches', seq: seq++, patches });
            if (performance.now() - start > seconds * 1000) {
              clearInterval(timer);
              resolve();
            }
          }, 33);
        });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return { chars: sent, longTasks };
      },
      { first, children, seconds },
    );
    const trace = JSON.parse((await harness.browser.stopTracing()).toString());
    const events = trace.traceEvents ?? trace;
    const main = events.find((e: any) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const onMain = events.filter((e: any) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid);
    const cpu = (name: string) => onMain.filter((e: any) => e.name === name).reduce((a: number, e: any) => a + (e.tdur ?? 0) / 1000, 0);
    const wall = (name: string) => onMain.filter((e: any) => e.name === name).reduce((a: number, e: any) => a + (e.dur ?? 0) / 1000, 0);
    const names = [
      'ThreadControllerImpl::RunTask',
      'FunctionCall',
      'UpdateLayoutTree',
      'Layout',
      'PrePaint',
      'Paint',
      'Commit',
      'Blink.ForcedStyleAndLayout.UpdateTime',
    ];
    console.log(`${children} children, ${result.chars} chars each in ${seconds} s; long tasks ${JSON.stringify(result.longTasks)}`);
    for (const n of names)
      console.log(`  ${n.padEnd(40)} cpu ${cpu(n).toFixed(0).padStart(6)} ms  wall ${wall(n).toFixed(0).padStart(6)} ms`);
    await webview.close();
  } finally {
    await harness.close();
  }
}

void main();
