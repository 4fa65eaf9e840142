// A 2,000-message session in the chat webview, in code-server's Chromium (BRIEF §5): the time from choosing it to its last
// message on screen, typing latency in the composer with it open, and the JS heap. The session file is written into the
// temp HOME's sessions dir for the workspace before VS Code starts. A report, not a test: no pass/fail exit.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { sessionsDirFor, timestampedSessionName } from '../src/protocol/sessionLayout';
import { TEST_IDS } from '../src/shared/webviewMessages';
import { byTestId, chatFrame } from '../test/e2e/harness/chatView';
import { startE2eEnv, type E2eEnv } from '../test/e2e/harness/e2eEnv';
import { quickPickRow, runCommand } from '../test/e2e/harness/quickInput';
import { epochNow } from '../test/e2e/harness/timingProxy';
import { waitUntil } from '../test/e2e/harness/wait';
import { percentile, readProbe, startProbe } from '../test/e2e/harness/webviewProbe';
import { heapProbe, MB, typingLatency } from './support/webviewMetrics';

const MESSAGES = 2_000;
const TITLE = 'Bench: the 2,000-message session';
const LAST_MARKER = 'Zq9last';
const MODEL = 'bench-model';

const budget = (value: number, limit: number, unit: string) =>
  `${Number.isFinite(value) ? value.toFixed(1) : 'n/a'} ${unit}  (budget ≤ ${limit} ${unit}: ${value <= limit ? 'within' : 'OVER'})`;

async function main(): Promise<void> {
  const env = await startE2eEnv({
    models: [MODEL],
    chromiumArgs: ['--enable-precise-memory-info'],
    beforeLaunch: ({ configDir, workspace, model }) => {
      writeFileSync(
        join(configDir, 'config.json'),
        JSON.stringify({
          providers: [{ name: 'bench', kind: 'openai', base_url: model.url, api_key: 'bench-not-a-secret' }],
          activeProvider: 'bench',
        }),
      );
      writeBigSession(configDir, workspace);
    },
  });
  try {
    await run(env);
  } finally {
    await env.close();
  }
}

async function run(env: E2eEnv): Promise<void> {
  const { page } = env;
  const chat = env.chat('sidebar');
  await runCommand(page, 'Catalyst: Open Chat');
  await chat.locator(byTestId(TEST_IDS.composer)).first().waitFor({ state: 'visible', timeout: 90_000 });
  // Start from an empty session, whatever the extension resumed on start.
  await chat.locator(byTestId(TEST_IDS.newSessionButton)).first().click();
  await waitUntil(async () => (await chat.getByText(LAST_MARKER).count()) === 0, { timeoutMs: 30_000, what: 'an empty session' });

  let frame = await chatFrame(page, 'sidebar');
  const heap = await heapProbe(env.page, frame);
  const heapBefore = await heap.usedBytes();
  await startProbe(frame, { selector: byTestId(TEST_IDS.transcript), marker: LAST_MARKER });
  await runCommand(page, 'Catalyst: Open Session…');
  const row = quickPickRow(page, TITLE, false);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await noteStateMessages(frame);
  const started = epochNow();
  await row.click();
  const seenAt = await waitUntil(() => markerSeenAt(frame), { timeoutMs: 120_000, intervalMs: 100, what: 'the last message on screen' });
  await readProbe(frame);
  const loadMs = seenAt - started;
  const arrivedAt = await lastStateMessageBefore(frame, seenAt);

  frame = await chatFrame(page, 'sidebar');
  const typing = await typingLatency(frame, page.keyboard);
  const heapAfter = await heap.usedBytes();
  console.log(`webview session load: ${MESSAGES} messages (${TITLE})`);
  console.log(`  "Open Session…" pick → last message on screen : ${budget(loadMs, 500, 'ms')}`);
  if (arrivedAt !== undefined)
    console.log(
      `    of which: until the state reached the webview ${(arrivedAt - started).toFixed(1)} ms (core + extension host), rendering it ${(seenAt - arrivedAt).toFixed(1)} ms`,
    );
  console.log(
    `  typing latency, keydown → frame shown (p95)  : ${budget(percentile(typing, 95), 50, 'ms')}  [median ${percentile(typing, 50).toFixed(1)} ms, ${typing.length} keys]`,
  );
  console.log(
    `  JS heap with the session open                 : ${budget(heapAfter / MB, 150, 'MB')}  [${heap.scope}; before the load ${(heapBefore / MB).toFixed(1)} MB, growth ${((heapAfter - heapBefore) / MB).toFixed(1)} MB]`,
  );
}

function writeBigSession(configDir: string, workspace: string): void {
  const dir = sessionsDirFor(configDir, workspace);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, timestampedSessionName(new Date(Date.now() - 3_600_000)));
  const lines = [JSON.stringify({ _session_version: 2 })];
  for (let i = 1; i <= MESSAGES; i += 2) {
    lines.push(JSON.stringify({ role: 'user', content: `Question ${i}: how should the module ${i % 37} handle case ${i}?` }));
    const last = i + 1 >= MESSAGES;
    lines.push(JSON.stringify({ role: 'assistant', content: assistantText(i + 1) + (last ? `\n\n${LAST_MARKER}` : '') }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  writeFileSync(`${file}.meta.json`, JSON.stringify({ title: TITLE }) + '\n');
}

function assistantText(n: number): string {
  return (
    `### Answer ${n}\n\nKeep the **state** in one place and derive the view from it; see \`module${n % 37}.ts\`.\n\n` +
    '```ts\n' +
    `export function handle${n}(input: string): string {\n  return input.trim();\n}\n` +
    '```\n\n' +
    `- check the inputs\n- write a test for case ${n}\n`
  );
}

/** Notes (epoch ms) when each snapshot or patch batch reaches the webview, to split the load time between host and view. */
async function noteStateMessages(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const g = globalThis as any;
    const arrivals: number[] = [];
    g.__catalystStateArrivals = arrivals;
    g.addEventListener(
      'message',
      (e: any) => {
        if (e.data?.type === 'patches' || e.data?.type === 'snapshot') arrivals.push(g.performance.timeOrigin + g.performance.now());
      },
      true,
    );
  });
}

async function lastStateMessageBefore(frame: Frame, time: number): Promise<number | undefined> {
  const arrivals = await frame.evaluate(() => (globalThis as any).__catalystStateArrivals as number[]);
  return arrivals.filter((t) => t <= time).pop();
}

/** Polls only the marker time, not the whole probe (a growing array serialized on the thread being measured). */
function markerSeenAt(frame: Frame): Promise<number | undefined> {
  return frame.evaluate(() => (globalThis as any).__catalystProbe?.markerSeenAt as number | undefined);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
