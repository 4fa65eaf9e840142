// A 2,000-message session in the chat webview, in code-server's Chromium (BRIEF §5): the time from choosing it to its last
// message on screen, typing latency in the composer with it open, and the JS heap. The session file is written into the
// temp HOME's sessions dir for the workspace before VS Code starts. A report, not a test: no pass/fail exit.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Frame } from 'playwright-core';
import { sessionsDirFor, timestampedSessionName } from '../src/protocol/sessionLayout';
import { TEST_IDS } from '../src/shared/webviewMessages';
import { byTestId, chatFrame } from '../test/e2e/harness/chatView';
import { startE2eEnv, type E2eEnv } from '../test/e2e/harness/e2eEnv';
import { quickPickRow, runCommand } from '../test/e2e/harness/quickInput';
import { epochNow } from '../test/e2e/harness/timingProxy';
import { waitUntil } from '../test/e2e/harness/wait';
import { percentile, readProbe, startProbe } from '../test/e2e/harness/webviewProbe';

const MESSAGES = 2_000;
const TITLE = 'Bench: the 2,000-message session';
const LAST_MARKER = 'Zq9last';
const MODEL = 'bench-model';
const MB = 1024 * 1024;

const budget = (value: number, limit: number, unit: string) =>
  `${Number.isFinite(value) ? value.toFixed(1) : 'n/a'} ${unit}  (budget ≤ ${limit} ${unit}: ${value <= limit ? 'within' : 'OVER'})`;

async function main(): Promise<void> {
  const env = await startE2eEnv({
    models: [MODEL],
    chromiumArgs: ['--enable-precise-memory-info'],
    beforeLaunch: ({ configDir, workspace, model }) => {
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ providers: [{ name: 'bench', kind: 'openai', base_url: model.url, api_key: 'bench-not-a-secret' }], activeProvider: 'bench' }));
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
  const heap = await heapProbe(env, frame);
  const heapBefore = await heap.usedBytes();
  await startProbe(frame, { selector: byTestId(TEST_IDS.transcript), marker: LAST_MARKER });
  await runCommand(page, 'Catalyst: Open Session…');
  const row = quickPickRow(page, TITLE, false);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  const started = epochNow();
  await row.click();
  const seenAt = await waitUntil(async () => (await readProbe(frame, false)).markerSeenAt, { timeoutMs: 120_000, intervalMs: 100, what: 'the last message on screen' });
  await readProbe(frame);
  const loadMs = seenAt - started;

  frame = await chatFrame(page, 'sidebar');
  const typing = await typingLatency(frame, page.keyboard);
  const heapAfter = await heap.usedBytes();
  console.log(`webview session load: ${MESSAGES} messages (${TITLE})`);
  console.log(`  "Open Session…" pick → last message on screen : ${budget(loadMs, 500, 'ms')}`);
  console.log(`  typing latency, keydown → next frame (p95)   : ${budget(percentile(typing, 95), 50, 'ms')}  [median ${percentile(typing, 50).toFixed(1)} ms, ${typing.length} keys]`);
  console.log(`  JS heap with the session open                 : ${budget(heapAfter / MB, 150, 'MB')}  [${heap.scope}; before the load ${(heapBefore / MB).toFixed(1)} MB, growth ${((heapAfter - heapBefore) / MB).toFixed(1)} MB]`);
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
  return `### Answer ${n}\n\nKeep the **state** in one place and derive the view from it; see \`module${n % 37}.ts\`.\n\n`
    + '```ts\n' + `export function handle${n}(input: string): string {\n  return input.trim();\n}\n` + '```\n\n'
    + `- check the inputs\n- write a test for case ${n}\n`;
}

/** keydown (event time) → the second animation frame after it (the first one after its paint), per key typed into the composer. */
async function typingLatency(frame: Frame, keyboard: { type(text: string, opts?: { delay?: number }): Promise<void> }): Promise<number[]> {
  await frame.evaluate((sel) => {
    const g = globalThis as any;
    const samples: number[] = [];
    g.__catalystTyping = samples;
    g.document.addEventListener('keydown', (e: any) => {
      const down = e.timeStamp;
      g.requestAnimationFrame(() => g.requestAnimationFrame((t: number) => samples.push(t - down)));
    }, true);
    g.document.querySelector(sel)?.focus();
  }, byTestId(TEST_IDS.composer));
  await frame.locator(byTestId(TEST_IDS.composer)).first().click();
  await keyboard.type('a quick follow-up question about case 2000', { delay: 60 });
  await new Promise((r) => setTimeout(r, 200));
  return frame.evaluate(() => (globalThis as any).__catalystTyping as number[]);
}

interface HeapProbe { scope: string; usedBytes(): Promise<number> }

/**
 * The webview's own V8 heap when its frame runs out of process (CDP on the frame); otherwise the renderer's heap that
 * the workbench and the webview share (CDP on the page), after a GC.
 */
async function heapProbe(env: E2eEnv, frame: Frame): Promise<HeapProbe> {
  const context = env.page.context();
  let session: CDPSession;
  let scope: string;
  try {
    session = await context.newCDPSession(frame);
    scope = 'the webview frame\'s own heap';
  } catch {
    session = await context.newCDPSession(env.page);
    scope = 'renderer heap shared by the workbench and the same-process webview';
  }
  return {
    scope,
    async usedBytes() {
      await session.send('HeapProfiler.collectGarbage').catch(() => undefined);
      const usage = await session.send('Runtime.getHeapUsage');
      return usage.usedSize;
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
