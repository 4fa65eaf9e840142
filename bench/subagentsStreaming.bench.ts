// Eight subagents streaming at once into the chat, in code-server's Chromium (issue #14): the scripted model fans out to
// 8 workers (concurrency 8), each child's reply is 2,000 deltas at ~250 deltas/s on its own route, all 8 rows expanded
// (their messages on screen). Through a pass-through proxy that notes when each child's last delta (its own marker)
// leaves the server, it prints last delta → on screen per child, the long tasks > 50 ms inside the webview while they
// stream, and the webview's JS heap after. A report, not a test: no pass/fail exit.
import type { Frame, Page } from 'playwright-core';
import { TEST_IDS } from '../src/shared/webviewMessages';
import type { ScriptStep, ScriptedResponse } from '../test/support/scriptedModelServer';
import { approvalCard, textTurn, toolCallTurn } from '../test/e2e/harness/approvals';
import { sendPrompt } from '../test/e2e/harness/chatActions';
import { byTestId, chatFrame } from '../test/e2e/harness/chatView';
import type { E2eEnv } from '../test/e2e/harness/e2eEnv';
import { runCommand } from '../test/e2e/harness/quickInput';
import { epochNow, type TimingProxy } from '../test/e2e/harness/timingProxy';
import { waitUntil } from '../test/e2e/harness/wait';
import { frameIntervals, percentile, readProbe, startProbe } from '../test/e2e/harness/webviewProbe';
import { MB, heapProbe, loadAverage } from './support/webviewMetrics';
import { startProfiling } from './support/profiling';
import { CPU_GROUPS, cpuSecondsBetween, machineLine, machineTicks, processGroups, ticksOf } from './support/processCpu';
import { longTasksLine, withProxiedEnv } from './support/proxiedEnv';

const CHILDREN = 8;
const DELTAS = 2_000;
const CHARS_PER_DELTA = 4;
const MODEL = 'bench-model';
const GATE = 'bench-children';
// ~250 deltas/s per child (issue #14's rate), kept in bursts: 10 deltas, then a 37 ms pause (8 paced streams in one
// Node process overshoot their timers by a few ms each, so the nominal 270/s arrives as ~250/s; a 32 ms pause, used
// until the end of session 7, arrived as 290–298/s). The printed rate is the measured one.
const BURST = 10;
const BURST_PAUSE_MS = 37;
const HEAP_BUDGET_MB = 150;

const taskKey = (i: number) => `[bench-child-${i}]`;
const markerOf = (i: number) => `Zq${i}end`;

const within = (ok: boolean) => (ok ? 'within' : 'OVER');
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

async function main(): Promise<void> {
  await withProxiedEnv(
    {
      models: [MODEL],
      chromiumArgs: ['--enable-precise-memory-info'],
      markers: Array.from({ length: CHILDREN }, (_, i) => markerOf(i)),
      config: { subagents: { parallel: { concurrency: CHILDREN } } },
    },
    run,
  );
}

async function run(env: E2eEnv, proxy: TimingProxy): Promise<void> {
  const { page, model } = env;
  await runCommand(page, 'Catalyst: Open Chat');
  const chat = env.chat('sidebar');
  await chat.locator(byTestId(TEST_IDS.composer)).first().waitFor({ state: 'visible', timeout: 90_000 });

  model.enqueue(
    toolCallTurn('call_bench_fan', 'subagent', {
      tasks: Array.from({ length: CHILDREN }, (_, i) => ({ agent: 'worker', task: `${taskKey(i)} write your part of the report` })),
    }),
    textTurn('All eight reported.'),
  );
  for (let i = 0; i < CHILDREN; i++) model.route(taskKey(i), childReply(i));
  await sendPrompt(chat, 'Write the report with eight workers.');
  await approvalCard(chat, 'Allow subagent?').locator(byTestId(TEST_IDS.approvalAccept)).click();
  await model.held(GATE, CHILDREN);

  // Every row open: each child's streamed message is on screen, the costliest case.
  const rows = chat.locator(byTestId(TEST_IDS.subagentRow));
  await waitUntil(async () => (await rows.count()) === CHILDREN, { timeoutMs: 60_000, what: `${CHILDREN} subagent rows` });
  for (let i = 0; i < CHILDREN; i++) await rows.nth(i).locator('summary').click();
  const frame = await chatFrame(page, 'sidebar');
  // BENCH_EXTRA_CSS tries a style change without rebuilding (a constructed stylesheet needs no CSP exception).
  if (process.env.BENCH_EXTRA_CSS) {
    await frame.evaluate((css) => {
      const doc = (globalThis as any).document;
      const sheet = new (globalThis as any).CSSStyleSheet();
      sheet.replaceSync(css);
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    }, process.env.BENCH_EXTRA_CSS);
  }
  // Frames and long tasks only: the rows' own probe below looks for the markers.
  await startProbe(frame);
  await startMarkerProbe(frame, process.env.BENCH_BYTES === '1');
  // BENCH_LOAF=1: the long animation frames, split. LoAF reports a frame to its local root (the workbench's document),
  // not to the same-process webview inside it, so the frames are the workbench's and the webview's together.
  if (process.env.BENCH_LOAF === '1') await startLongFrameProbe(page);

  const profiling = process.env.BENCH_PROFILE
    ? await startProfiling(await page.context().newCDPSession(page), process.env.BENCH_PROFILE)
    : undefined;
  const groups = processGroups(env);
  const ticksBefore = ticksOf(groups);
  const machineBefore = machineTicks();
  const released = epochNow();
  model.release(GATE);
  const seen = await waitUntil(() => markersSeen(frame), {
    timeoutMs: 300_000,
    intervalMs: 500,
    what: 'every child’s last delta on screen',
  });
  const cpu = cpuSecondsBetween(ticksBefore, ticksOf(groups));
  const machineAfter = machineTicks();
  await profiling?.stopAndPrint();
  const final = await readProbe(frame);
  const arrived = await frame.evaluate(() => (globalThis as any).__catalystMarkersArrived as (number | null)[]);
  const bytes = await frame.evaluate(() => (globalThis as any).__catalystMessageBytes as MessageBytes | undefined);
  const frames = await page.evaluate(() => ((globalThis as any).__catalystLongFrames ?? []) as LongFrame[]);
  const heap = await heapProbe(page, frame);
  const heapBytes = await heap.usedBytes();

  const lags: number[] = [];
  let lastSent = released;
  for (let i = 0; i < CHILDREN; i++) {
    const sent = proxy.markersAt.get(markerOf(i));
    if (sent === undefined) throw new Error(`the proxy never saw ${markerOf(i)} go out`);
    lastSent = Math.max(lastSent, sent);
    lags.push(seen[i] - sent);
  }
  const lastSeen = Math.max(...seen);
  const longTasks = final.longTasks.filter((t) => t.start + t.duration >= released && t.start <= lastSeen);
  const seconds = (lastSent - released) / 1000;
  const worst = Math.max(...lags);
  const intervals = frameIntervals(final.frames, released, lastSeen);

  console.log(
    `subagents streaming: ${CHILDREN} children × ${DELTAS} deltas of ~${CHARS_PER_DELTA} chars, all rows expanded, ` +
      `load average ${loadAverage()}, sent in ${seconds.toFixed(1)} s = ${(DELTAS / seconds).toFixed(0)} deltas/s per child (${((DELTAS * CHILDREN) / seconds).toFixed(0)} in all)`,
  );
  console.log(
    `  last delta sent → on screen : worst ${ms(worst)}, median ${ms(percentile(lags, 50))}  (budget ≤ 100 ms: ${within(worst <= 100)})` +
      `  [per child: ${lags.map((l) => l.toFixed(0)).join(', ')} ms]`,
  );
  const hostLags = arrived.map((t, i) => (typeof t === 'number' ? t - proxy.markersAt.get(markerOf(i))! : NaN));
  const renderLags = arrived.map((t, i) => (typeof t === 'number' ? seen[i] - t : NaN));
  console.log(
    `    of which server → webview: worst ${ms(Math.max(...hostLags))}; webview → on screen: worst ${ms(Math.max(...renderLags))}` +
      `  [per child: ${hostLags.map((l, i) => `${l.toFixed(0)}+${renderLags[i].toFixed(0)}`).join(', ')} ms]`,
  );
  // How far apart the children ended: their ends queue behind each other in the core, the host and the workbench.
  const sentAt = Array.from({ length: CHILDREN }, (_, i) => proxy.markersAt.get(markerOf(i))!);
  const firstSent = Math.min(...sentAt);
  console.log(
    `    last deltas sent at        : +${sentAt.map((t) => (t - firstSent).toFixed(0)).join(', +')} ms; ` +
      `reached the webview at +${arrived.map((t) => (typeof t === 'number' ? (t - firstSent).toFixed(0) : '?')).join(', +')} ms`,
  );
  console.log(
    `  frames while streaming      : p95 ${ms(percentile(intervals, 95))}, median ${ms(percentile(intervals, 50))}, ${intervals.length} frames (for scale)`,
  );
  console.log(longTasksLine(longTasks, final.longTaskSupported));
  for (const line of longFrameLines(frames.filter((f) => f.start + f.duration >= released && f.start <= lastSeen))) console.log(line);
  console.log(
    `  CPU while streaming         : ${CPU_GROUPS.map((g) => `${g} ${cpu[g].toFixed(2)} s`).join(', ')}  (for scale: independent of the load)`,
  );
  console.log(machineLine(machineBefore, machineAfter, cpu));
  if (bytes) {
    console.log(messageBytesLine(bytes, arrived, seconds));
    const sentFirst = Math.min(...Array.from({ length: CHILDREN }, (_, i) => proxy.markersAt.get(markerOf(i))!));
    const around = bytes.at.map((t, i) => ({ t: t - sentFirst, size: bytes.sizes[i] })).filter((m) => m.t >= -40);
    console.log(
      `    messages from the first last delta on: ${around.map((m) => `+${m.t.toFixed(0)} (${(m.size / 1024).toFixed(1)} KB)`).join(', ')}`,
    );
  }
  console.log(
    `  webview JS heap after       : ${(heapBytes / MB).toFixed(1)} MB  (budget ≤ ${HEAP_BUDGET_MB} MB: ${within(heapBytes / MB <= HEAP_BUDGET_MB)})  [${heap.scope}]`,
  );
}

/** A long animation frame (the Long Animation Frames API) in the webview's frame: where its time went. */
interface LongFrame {
  start: number;
  duration: number;
  blocking: number;
  /** Milliseconds from the frame's start to its rendering, and to its style and layout. */
  renderStart: number;
  styleStart: number;
  scripts: { what: string; duration: number; forcedLayout: number }[];
}

/** Notes the long animation frames (> 50 ms) of a document, with their scripts (same-origin ones named). */
function startLongFrameProbe(target: Page): Promise<void> {
  return target.evaluate(() => {
    const g = globalThis as any;
    const origin = g.performance.timeOrigin;
    const longFrames: unknown[] = [];
    g.__catalystLongFrames = longFrames;
    if (!(g.PerformanceObserver.supportedEntryTypes ?? []).includes('long-animation-frame')) return;
    new g.PerformanceObserver((list: any) => {
      for (const e of list.getEntries()) {
        if (e.duration <= 50) continue;
        longFrames.push({
          start: origin + e.startTime,
          duration: e.duration,
          blocking: e.blockingDuration,
          renderStart: e.renderStart ? e.renderStart - e.startTime : 0,
          styleStart: e.styleAndLayoutStart ? e.styleAndLayoutStart - e.startTime : 0,
          scripts: (e.scripts ?? []).map((sc: any) => ({
            what: `${sc.invokerType} ${sc.invoker}${sc.sourceFunctionName ? ` → ${sc.sourceFunctionName}` : ''}`,
            duration: sc.duration,
            forcedLayout: sc.forcedStyleAndLayoutDuration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
  });
}

/** One line per long animation frame: its script, the rendering (rAF callbacks and after) and style + layout. */
function longFrameLines(frames: readonly LongFrame[]): string[] {
  return frames.map((f) => {
    const script = f.scripts.reduce((a, s) => a + s.duration, 0);
    const style = f.styleStart > 0 ? f.duration - f.styleStart : 0;
    const top = [...f.scripts].sort((a, b) => b.duration - a.duration).slice(0, 3);
    return (
      `    long frame ${f.duration.toFixed(0)} ms (blocking ${f.blocking.toFixed(0)}): scripts ${script.toFixed(0)} ms, ` +
      `rendering from ${f.renderStart > 0 ? f.renderStart.toFixed(0) : '-'} ms, style + layout ${style.toFixed(0)} ms` +
      (top.length
        ? `  [${top.map((s) => `${s.what} ${s.duration.toFixed(0)} ms${s.forcedLayout ? ` (forced layout ${s.forcedLayout.toFixed(0)})` : ''}`).join('; ')}]`
        : '')
    );
  });
}

/** The `patches` messages that reached the webview while the children streamed (BENCH_BYTES=1), as JSON characters. */
interface MessageBytes {
  sizes: number[];
  /** When each arrived (epoch ms). */
  at: number[];
  /** The largest message's largest patches. */
  largestParts: { size: number; top: string[] };
}

function messageBytesLine(bytes: MessageBytes, arrived: (number | null)[], seconds: number): string {
  const total = bytes.sizes.reduce((a, b) => a + b, 0);
  const lastMarker = Math.max(...arrived.map((t) => t ?? -Infinity));
  const carrying = bytes.sizes.filter((_, i) => bytes.at[i] === lastMarker);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return (
    `  host → webview messages     : ${bytes.sizes.length}, ${kb(total)} in all (${kb(total / seconds)}/s), largest ${kb(Math.max(...bytes.sizes))}, ` +
    `the last marker's ${carrying.length ? kb(Math.max(...carrying)) : 'n/a'}  (JSON characters)  [largest: ${bytes.largestParts.top.join(', ')}]`
  );
}

/**
 * In the frame: per animation frame, the first time each child's marker is in its row's last message. With `countBytes`
 * it also notes each `patches` message's JSON size (stringifying costs the page it measures: not in the latency runs).
 */
function startMarkerProbe(frame: Frame, countBytes: boolean): Promise<void> {
  return frame.evaluate(
    ({ rowSelector, messageSelector, keys, markers, countBytes }) => {
      const g = globalThis as any;
      const origin = g.performance.timeOrigin;
      const rows = Array.from(g.document.querySelectorAll(rowSelector)) as any[];
      const rowOf = keys.map((key: string) => rows.find((r) => (r.querySelector('.subagent-task')?.textContent ?? '').startsWith(key)));
      const seen: (number | undefined)[] = keys.map(() => undefined);
      const arrived: (number | undefined)[] = keys.map(() => undefined);
      g.__catalystMarkersSeen = seen;
      g.__catalystMarkersArrived = arrived;
      const bytes = countBytes ? { sizes: [] as number[], at: [] as number[], largestParts: { size: 0, top: [] as string[] } } : undefined;
      g.__catalystMessageBytes = bytes;
      // When the patch carrying each marker reaches the webview: splits the host's share of the lag from the render's.
      g.addEventListener('message', (event: any) => {
        const data = event.data;
        if (data?.type !== 'patches') return;
        const now = origin + g.performance.now();
        if (bytes && arrived.some((t) => t === undefined)) {
          const size = JSON.stringify(data).length;
          bytes.sizes.push(size);
          bytes.at.push(now);
          if (size > bytes.largestParts.size) {
            const parts = data.patches.map((p: any) => ({
              what: `${p.op}${p.field ? `:${p.field}` : p.op === 'item' ? `:${p.item?.kind}` : ''}`,
              size: JSON.stringify(p).length,
            }));
            parts.sort((a: any, b: any) => b.size - a.size);
            bytes.largestParts = { size, top: parts.slice(0, 4).map((x: any) => `${x.what} ${(x.size / 1024).toFixed(1)} KB`) };
          }
        }
        for (const p of data.patches) {
          const text: string = p.op === 'append' ? p.text : p.op === 'item' ? (p.item?.text ?? '') : '';
          markers.forEach((marker: string, i: number) => {
            if (arrived[i] === undefined && text.includes(marker)) arrived[i] = now;
          });
        }
      });
      // The marker is the end of its message: the last text nodes are enough. Reading the whole message's textContent
      // (8 × ~8,000 characters per frame) cost the page it measures.
      const endText = (root: any, chars: number) => {
        const walker = g.document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
        let text = '';
        for (let node = walker.lastChild(); node && text.length < chars; node = walker.previousNode()) text = node.data + text;
        return text;
      };
      const tick = (t: number) => {
        let left = 0;
        markers.forEach((marker: string, i: number) => {
          if (seen[i] !== undefined) return;
          const messages = rowOf[i]?.querySelectorAll(messageSelector);
          const last = messages?.[messages.length - 1];
          if (last && endText(last, 200).includes(marker)) seen[i] = origin + t;
          else left++;
        });
        if (left > 0) g.requestAnimationFrame(tick);
      };
      g.requestAnimationFrame(tick);
    },
    {
      rowSelector: byTestId(TEST_IDS.subagentRow),
      messageSelector: byTestId(TEST_IDS.assistantMessage),
      keys: Array.from({ length: CHILDREN }, (_, i) => taskKey(i)),
      markers: Array.from({ length: CHILDREN }, (_, i) => markerOf(i)),
      countBytes,
    },
  );
}

/** Every child's seen time once all are seen; polls a small array, never the probe's growing frame list. */
async function markersSeen(frame: Frame): Promise<number[] | undefined> {
  const seen = await frame.evaluate(() => (globalThis as any).__catalystMarkersSeen as (number | null)[]);
  return seen.every((t) => typeof t === 'number') ? (seen as number[]) : undefined;
}

/** Child `i`'s one model round: held until every child is in flight, then DELTAS paced deltas of markdown, its marker last. */
function childReply(i: number): ScriptedResponse {
  const words = ['child', 'stream', 'delta', 'frame', 'row', 'patch', 'panel', 'token', 'budget', 'subagent'];
  let doc = '';
  for (let p = 0; doc.length < DELTAS * CHARS_PER_DELTA; p++) {
    doc += `${p % 6 === 0 ? `### Part ${p / 6 + 1} of child ${i}\n\n` : ''}${Array.from({ length: 24 }, (_, w) => words[(i + p + w) % words.length]).join(' ')} with **bold** and \`code\`.\n\n`;
  }
  const chars = Array.from(doc);
  const steps: ScriptStep[] = [];
  for (let d = 0; d < DELTAS - 1; d++) steps.push({ text: chars.slice(d * CHARS_PER_DELTA, (d + 1) * CHARS_PER_DELTA).join('') || ' ' });
  steps.push({ text: `\n\n${markerOf(i)}` });
  return { holdUntil: GATE, steps: steps.map((step, d) => (d > 0 && d % BURST === 0 ? { ...step, delayMs: BURST_PAUSE_MS } : step)) };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
