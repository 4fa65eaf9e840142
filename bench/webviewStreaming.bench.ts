// The chat webview under a fast stream, in code-server's Chromium (BRIEF §5): a ~10k-token reply sent as 10,000 deltas at
// ~1,000 deltas/s by the scripted model server (through a pass-through proxy that notes when each chunk leaves). Prints how long after the server's last delta the text is on screen,
// the p95 frame time and the long tasks inside the webview frame while it streams. A report, not a test: no pass/fail exit.
import type { Frame } from 'playwright-core';
import type { ScriptStep } from '../test/support/scriptedModelServer';
import { sendPrompt } from '../test/e2e/harness/chatActions';
import { byTestId, chatFrame } from '../test/e2e/harness/chatView';
import type { E2eEnv } from '../test/e2e/harness/e2eEnv';
import { runCommand } from '../test/e2e/harness/quickInput';
import type { TimingProxy } from '../test/e2e/harness/timingProxy';
import { waitUntil } from '../test/e2e/harness/wait';
import { frameIntervals, percentile, readProbe, startProbe } from '../test/e2e/harness/webviewProbe';
import { TEST_IDS } from '../src/shared/webviewMessages';
import { longTasksLine, withProxiedEnv } from './support/proxiedEnv';

const DELTAS = 10_000;
const CHARS_PER_DELTA = 4; // about one token
const MARKER = 'Zq9end';
const MODEL = 'bench-model';
// Node timers have ~1 ms granularity plus overshoot, so the pace is kept in bursts: 10 deltas, then an 8 ms pause
// (≈ 10.5 ms per burst here; the printed rate is the measured one).
const BURST = 10;
const BURST_PAUSE_MS = 8;

const budget = (value: number, limit: number, unit = 'ms') =>
  `${Number.isFinite(value) ? value.toFixed(1) : 'n/a'} ${unit}  (budget ≤ ${limit} ${unit}: ${value <= limit ? 'within' : 'OVER'})`;

async function main(): Promise<void> {
  await withProxiedEnv({ models: [MODEL], chromiumArgs: ['--enable-precise-memory-info'], markers: MARKER }, run);
}

async function run(env: E2eEnv, proxy: TimingProxy): Promise<void> {
  const { page, model } = env;
  await runCommand(page, 'Catalyst: Open Chat');
  const chat = env.chat('sidebar');
  await chat.locator(byTestId(TEST_IDS.composer)).first().waitFor({ state: 'visible', timeout: 90_000 });

  const steps = replySteps();
  model.enqueue({ steps, usage: { prompt: 50, completion: DELTAS } });
  const frame = await chatFrame(page, 'sidebar');
  await startProbe(frame, { selector: byTestId(TEST_IDS.assistantMessage), marker: MARKER });
  await sendPrompt(chat, 'Write the long design document.');

  const seen = await waitUntil(() => markerSeenAt(frame), { timeoutMs: 180_000, intervalMs: 250, what: 'the last delta on screen' });
  const final = await readProbe(frame);
  const sentFirst = proxy.firstChunkAt!;
  const sentLast = proxy.markerAt!;
  const intervals = frameIntervals(final.frames, sentFirst, seen);
  const longTasks = final.longTasks.filter((t) => t.start + t.duration >= sentFirst && t.start <= seen);
  const streamSeconds = (sentLast - sentFirst) / 1000;

  console.log(
    `webview streaming: ${DELTAS} deltas of ~${CHARS_PER_DELTA} chars (${(steps.reduce((n, s) => n + (s.text?.length ?? 0), 0) / 1024).toFixed(1)} KB of markdown), ` +
      `sent in ${streamSeconds.toFixed(1)} s = ${(DELTAS / streamSeconds).toFixed(0)} deltas/s`,
  );
  console.log(`  last delta sent → on screen : ${budget(seen - sentLast, 100)}`);
  console.log(
    `  p95 frame while streaming   : ${budget(percentile(intervals, 95), 16.7)}  [median ${percentile(intervals, 50).toFixed(1)} ms, max ${Math.max(...intervals).toFixed(1)} ms, ${intervals.length} frames]`,
  );
  console.log(longTasksLine(longTasks, final.longTaskSupported));
}

/**
 * Polls only the marker time: reading the whole probe (every frame time so far) four times a second would serialize a
 * growing array on the main thread the webview is being measured on.
 */
function markerSeenAt(frame: Frame): Promise<number | undefined> {
  return frame.evaluate(() => (globalThis as any).__catalystProbe?.markerSeenAt as number | undefined);
}

/** A markdown document (headings, paragraphs, lists, code) cut into DELTAS pieces, the marker last. */
function replySteps(): ScriptStep[] {
  const doc = markdownDocument(DELTAS * CHARS_PER_DELTA);
  const chars = Array.from(doc);
  const steps: ScriptStep[] = [];
  for (let i = 0; i < DELTAS - 1; i++) steps.push({ text: chars.slice(i * CHARS_PER_DELTA, (i + 1) * CHARS_PER_DELTA).join('') || ' ' });
  steps.push({ text: `\n\n${MARKER}` });
  return steps.map((step, i) => (i > 0 && i % BURST === 0 ? { ...step, delayMs: BURST_PAUSE_MS } : step));
}

function markdownDocument(length: number): string {
  const words = ['render', 'stream', 'delta', 'frame', 'webview', 'patch', 'session', 'model', 'token', 'latency', 'budget', 'coalesce'];
  let doc = '';
  for (let section = 1; doc.length < length; section++) {
    doc += `## Section ${section}\n\n`;
    for (let p = 0; p < 3; p++) {
      const sentence = Array.from({ length: 40 }, (_, i) => words[(section * 7 + p * 3 + i) % words.length]).join(' ');
      doc += `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)} with **emphasis** and \`code\`.\n\n`;
    }
    doc += `- item one of ${section}\n- item two of ${section}\n\n`;
    doc += '```ts\n' + `export function step${section}(x: number): number {\n  return x * ${section} + 1;\n}\n` + '```\n\n';
  }
  return doc.slice(0, length);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
