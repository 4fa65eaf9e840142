// Development aid for screenshots and rough measurements (not a test, never shipped). A webview change is developed
// against the component suite, `npm run test:webview` (test/webview/): it asserts what this script only shows. This
// script drives the same harness — the real HTML shell and CSP over HTTP, the VS Code API stand-in, Debian's Chromium —
// so what it shows is what the suite tests. Run it with tsx (it imports the TypeScript harness and fixtures):
//   node --import tsx webview/dev/run.mjs shots [outDir]    screenshots of fixture states (dark, light, high contrast)
//   node --import tsx webview/dev/run.mjs review [outDir]   the "Review changes" list and the approval cards
//   node --import tsx webview/dev/run.mjs scv [outDir]      an SCV core: the server-queue panel, progress lines
//   node --import tsx webview/dev/run.mjs goal [outDir]     goal mode's Control Center in each fixture state, and the chat's goal card
//   node --import tsx webview/dev/run.mjs perf              streaming 10k tokens at 1,000 deltas/s; a 2,000-message snapshot
//   node --import tsx webview/dev/run.mjs profile | trace   the streaming run under the CPU profiler / a trace
// EXTRA_CSS='…' tries a style change on top of the bundle's stylesheet without rebuilding.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIDEBAR_VIEW, startWebviewHarness } from '../../test/webview/harness/webviewPage.ts';
import { firstRunState, longReply, longState, richState, scvState } from './fixtures.ts';
import { GOAL_FIXTURES } from './goalFixtures.ts';

const mode = process.argv[2] ?? 'shots';
const outDir = process.argv[3] ?? join(tmpdir(), 'catalyst-webview-shots');
const THEMES = ['vscode-dark', 'vscode-light', 'vscode-high-contrast'];

/** EXTRA_CSS as a constructed stylesheet: like the theme, it needs no CSP exception. */
function extraCssScript() {
  if (!process.env.EXTRA_CSS) return [];
  return [
    `{ const s = new CSSStyleSheet(); s.replaceSync(${JSON.stringify(process.env.EXTRA_CSS)}); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }`,
  ];
}

function openPage(harness, theme = 'vscode-dark', viewport = { width: 420, height: 900 }, placement = 'sidebar') {
  return harness.open({ theme, viewport, initScripts: extraCssScript(), placement });
}

/** Two animation frames and the fonts: what a screenshot needs to show the rendered state. */
function settle(page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

async function show(webview, state) {
  await webview.snapshot(state);
  await webview.page.locator('[data-testid=core-status][data-status]').waitFor();
  await settle(webview.page);
}

/** The suite fails on these; here they are printed so a screenshot of a broken page is not mistaken for a good one. */
function reportProblems(webview) {
  if (webview.problems.length) console.log('problems', webview.problems);
}

function streamingState() {
  const state = richState();
  state.run = { status: 'running', runId: 'r1' };
  state.items = [
    { kind: 'user', id: 'u1', text: 'Write a long answer', images: 0 },
    { kind: 'assistant', id: 'a1', runId: 'r1', text: '', thinking: '', streaming: true },
  ];
  return state;
}

async function shots(harness) {
  mkdirSync(outDir, { recursive: true });
  for (const theme of THEMES) {
    const webview = await openPage(harness, theme);
    const { page } = webview;
    await show(webview, richState());
    await page.screenshot({ path: join(outDir, `${theme}-bottom.png`) });
    await page.evaluate(() => {
      document.querySelector('.transcript').scrollTop = 0;
    });
    await settle(page);
    await page.screenshot({ path: join(outDir, `${theme}-top.png`) });
    await page.locator('[data-tool=edit]').scrollIntoViewIfNeeded();
    await page.click('[data-tool=edit] summary');
    await page.locator('[data-tool=edit] .tool-body .tool-section').first().waitFor();
    await settle(page);
    await page.screenshot({ path: join(outDir, `${theme}-middle.png`) });
    reportProblems(webview);
    await webview.close();
  }
  const webview = await openPage(harness);
  const { page } = webview;
  await show(webview, firstRunState());
  await page.screenshot({ path: join(outDir, 'first-run.png') });
  await show(webview, richState());
  await page.click('[data-testid=sessions-button]');
  await page.locator('[data-testid=session-row]').first().waitFor();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'sessions.png') });
  await page.keyboard.press('Escape');
  await page.getByText('Allow Pattern…').first().click();
  await page.locator('.approval-pattern input').waitFor();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'pattern.png') });
  await page.keyboard.press('Escape');
  await page.click('[data-testid=composer-input]');
  await page.keyboard.type('/c');
  await page.locator('[data-testid=completion-list]').waitFor();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'slash.png') });
  reportProblems(webview);
  await webview.close();
}

async function review(harness) {
  mkdirSync(outDir, { recursive: true });
  const webview = await openPage(harness);
  const { page } = webview;
  await show(webview, richState());
  await page.screenshot({ path: join(outDir, 'review-dark.png') });
  await page.locator('.approval-error').first().scrollIntoViewIfNeeded();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'review-card-error.png') });
  for (const theme of THEMES.slice(1)) {
    await webview.setTheme(theme);
    await settle(page);
    await page.screenshot({ path: join(outDir, `review-${theme}.png`) });
  }
  await webview.setTheme('vscode-dark');
  // A core without approval_edited_content: the note on the file card.
  const state = richState();
  state.core.capabilities = ['allow_pattern'];
  await show(webview, state);
  await page.locator('.approval-note').first().scrollIntoViewIfNeeded();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'review-no-edit-capability.png') });
  reportProblems(webview);
  await webview.close();
}

async function scv(harness) {
  mkdirSync(outDir, { recursive: true });
  const webview = await openPage(harness);
  const { page } = webview;
  const state = scvState();
  await show(webview, state);
  for (const theme of THEMES) {
    await webview.setTheme(theme);
    await settle(page);
    await page.screenshot({ path: join(outDir, `scv-${theme}.png`) });
  }
  await webview.setTheme('vscode-dark');
  await page.click('[data-testid=server-queue-row][data-id="q-1"] [data-testid=server-queue-edit]');
  await page.keyboard.type(' Now.');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('Twice');
  await settle(page);
  await page.screenshot({ path: join(outDir, 'scv-editing.png') });
  await page.keyboard.press('Escape');
  await webview.patch({ op: 'set', key: 'serverQueue', value: { paused: true, entries: [] } });
  await page.locator('[data-testid=server-queue][data-paused="true"]').waitFor();
  await settle(page);
  await page.screenshot({ path: join(outDir, 'scv-paused.png') });
  reportProblems(webview);
  await webview.close();
}

async function perf(harness) {
  const webview = await openPage(harness, 'vscode-dark', { width: 600, height: 900 });
  const { page } = webview;
  const browser = harness.browser;
  let cdp;
  if (mode === 'trace') await browser.startTracing(page, { categories: ['devtools.timeline', 'blink', 'toplevel'] });
  if (mode === 'profile') {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const stream = await page.evaluate(
    async ({ view, state, text }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      window.__host.send({ type: 'snapshot', seq: 1, state, view });
      await frame();
      await frame();
      const chunks = text.match(/[\s\S]{1,4}/g);
      const longTasks = [];
      new PerformanceObserver((list) =>
        longTasks.push(...list.getEntries().map((e) => ({ at: e.startTime, ms: Math.round(e.duration) }))),
      ).observe({ type: 'longtask' });
      const frames = [];
      let running = true;
      let last = performance.now();
      const loop = (t) => {
        frames.push(t - last);
        last = t;
        if (running) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
      let seq = 2;
      let sent = 0;
      const start = performance.now();
      await new Promise((resolve) => {
        const timer = setInterval(() => {
          const due = Math.min(chunks.length, Math.floor(performance.now() - start));
          const patches = [];
          while (sent < due) patches.push({ op: 'append', index: 1, field: 'text', text: chunks[sent++] });
          if (patches.length) window.__host.send({ type: 'patches', seq: seq++, patches });
          if (sent >= chunks.length) {
            clearInterval(timer);
            resolve();
          }
        }, 16);
      });
      const lastDelta = performance.now();
      window.__host.send({
        type: 'patches',
        seq: seq++,
        patches: [{ op: 'item', index: 1, item: { kind: 'assistant', id: 'a1', runId: 'r1', text, thinking: '', streaming: false } }],
      });
      let settled = 0;
      for (;;) {
        await frame();
        const el = document.querySelector('[data-testid=assistant-message]');
        if (el && !el.hasAttribute('aria-busy')) {
          settled = performance.now() - lastDelta;
          break;
        }
      }
      running = false;
      const settledAt = performance.now();
      console.timeStamp('stream-settled');
      const highlighted = async () => {
        while (document.querySelector('code[data-lang]')) await new Promise((r) => setTimeout(r, 50));
      };
      const idleStart = performance.now();
      await highlighted();
      const highlightDoneMs = Math.round(performance.now() - idleStart);
      const sorted = frames.slice(2).sort((a, b) => a - b);
      return {
        deltas: chunks.length,
        seconds: ((lastDelta - start) / 1000).toFixed(1),
        settledMs: Math.round(settled),
        p95FrameMs: sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1),
        maxFrameMs: sorted[sorted.length - 1]?.toFixed(1),
        longTasksWhileStreaming: longTasks.filter((t) => t.at < settledAt).map((t) => t.ms),
        longTasksAfter: longTasks.filter((t) => t.at >= settledAt).map((t) => t.ms),
        highlightDoneMs,
        codeBlocks: document.querySelectorAll('[data-testid=code-block]').length,
      };
    },
    { view: SIDEBAR_VIEW, state: streamingState(), text: longReply(40_000) },
  );
  console.log('stream', JSON.stringify(stream));
  if (mode === 'trace') {
    printTrace(JSON.parse((await browser.stopTracing()).toString()));
    await webview.close();
    return;
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    printProfile(profile);
    await webview.close();
    return;
  }

  const big = await page.evaluate(
    async ({ view, state }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const t0 = performance.now();
      window.__host.send({ type: 'snapshot', seq: 1000, state, view });
      while (!document.querySelector('.transcript').textContent.includes('Question number 1998')) await frame();
      const t1 = performance.now();
      const mounted = document.querySelectorAll('.vl-items > .item').length;
      const t = document.querySelector('.transcript');
      const atBottom = Math.abs(t.scrollHeight - t.scrollTop - t.clientHeight) < 2;
      const heap = performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : undefined;
      return { items: state.items.length, firstFrameMs: Math.round(t1 - t0), mounted, atBottom, heapMB: heap };
    },
    { view: SIDEBAR_VIEW, state: longState(2000) },
  );
  console.log('snapshot2000', JSON.stringify(big));

  // Scroll to the top and back: anchoring and mounting must keep up.
  const scroll = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const t = document.querySelector('.transcript');
    t.scrollTop = 0;
    await frame();
    await frame();
    await frame();
    const firstVisible = document.querySelector('.vl-items > .item')?.textContent?.slice(0, 40);
    const jumpShown = !document.querySelector('.jump-latest').hidden;
    const topScrollTop = t.scrollTop;
    document.querySelector('.jump-latest').click();
    for (let i = 0; i < 6; i++) await frame();
    return { topScrollTop, firstVisible, jumpShown, backAtBottom: Math.abs(t.scrollHeight - t.scrollTop - t.clientHeight) < 2 };
  });
  console.log('scroll', JSON.stringify(scroll));

  await page.evaluate(() => {
    window.__keyLatency = [];
    document.querySelector('[data-testid=composer-input]').addEventListener('keydown', (e) => {
      requestAnimationFrame(() => window.__keyLatency.push(performance.now() - e.timeStamp));
    });
  });
  await page.click('[data-testid=composer-input]');
  await page.keyboard.type('typing into a long session feels instant', { delay: 20 });
  const latency = await page.evaluate(() => window.__keyLatency.sort((a, b) => a - b));
  console.log(
    'typing',
    JSON.stringify({
      keys: latency.length,
      p50: latency[Math.floor(latency.length / 2)]?.toFixed(1),
      max: latency[latency.length - 1]?.toFixed(1),
    }),
  );
  reportProblems(webview);
  await webview.close();
}

/** Main-thread time per trace event name (complete events on the renderer's main thread), top 20. */
function printTrace(trace) {
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const sums = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !main || e.tid !== main.tid || e.pid !== main.pid) continue;
    const s = sums.get(e.name) ?? { ms: 0, n: 0 };
    s.ms += (e.dur ?? 0) / 1000;
    s.n++;
    sums.set(e.name, s);
  }
  for (const [k, v] of [...sums].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20))
    console.log(`${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(6)}x  ${k}`);
  // CPU time (tdur) of top-level main-thread tasks: unlike wall time, not stretched by other processes on the machine.
  const tasks = events.filter((e) => e.ph === 'X' && e.tid === main?.tid && e.tdur !== undefined && /RunTask/.test(e.name));
  if (!tasks.length)
    console.log(
      'X event names with tdur',
      [...new Set(events.filter((e) => e.ph === 'X' && e.tid === main?.tid && e.tdur !== undefined).map((e) => e.name))].slice(0, 30),
    );
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'stream-settled');
  const streaming = tasks.filter((e) => !mark || e.ts < mark.ts);
  const cpuStreaming = streaming.map((e) => e.tdur / 1000).sort((a, b) => a - b);
  console.log('tasks while streaming (CPU ms)', {
    n: cpuStreaming.length,
    p95: cpuStreaming[Math.floor(cpuStreaming.length * 0.95)]?.toFixed(1),
    p99: cpuStreaming[Math.floor(cpuStreaming.length * 0.99)]?.toFixed(1),
    max: cpuStreaming.at(-1)?.toFixed(1),
    over50: cpuStreaming.filter((x) => x > 50).map((x) => Math.round(x)),
  });
  const cpu = tasks.map((e) => e.tdur / 1000).sort((a, b) => a - b);
  const wall = tasks.map((e) => e.dur / 1000).sort((a, b) => a - b);
  console.log('tasks', {
    n: cpu.length,
    cpuP95: cpu[Math.floor(cpu.length * 0.95)]?.toFixed(1),
    cpuMax: cpu.at(-1)?.toFixed(1),
    cpuOver50: cpu.filter((x) => x > 50).map((x) => Math.round(x)),
    wallMax: wall.at(-1)?.toFixed(1),
  });
  const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X' && e.tid === main?.tid);
  const begins = events.filter((e) => e.name === 'Layout' && e.tid === main?.tid && e.args?.beginData);
  const dirty = begins.map((e) => e.args?.beginData?.dirtyObjects ?? 0).sort((a, b) => a - b);
  const q = (p) => dirty[Math.floor(dirty.length * p)];
  console.log('layout dirtyObjects', {
    n: dirty.length,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    total: begins.at(-1)?.args?.beginData?.totalObjects,
  });
}

/** Self time per function of a CPU profile, top 25. */
function printProfile(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id).callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`total sampled ${Math.round(total)} ms`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${v.toFixed(0).padStart(7)} ms  ${k}`);
}

/** The Control Center (its own page and bundle) in each goal fixture, every theme; then the chat's card. */
async function goal(harness) {
  mkdirSync(outDir, { recursive: true });
  for (const theme of THEMES) {
    const webview = await openPage(harness, theme, { width: 900, height: 1100 }, 'controlCenter');
    for (const [name, fixture] of Object.entries(GOAL_FIXTURES)) {
      await webview.snapshot(fixture(), { ...SIDEBAR_VIEW, placement: 'controlCenter' });
      await webview.page.locator('[data-testid=goal-control-center]').waitFor();
      const run = webview.page.locator('[data-testid=goal-step][data-status=running] summary').first();
      if ((await run.count()) > 0) await run.click();
      await settle(webview.page);
      await webview.page.screenshot({ path: join(outDir, `goal-${name}-${theme}.png`), fullPage: true });
    }
    reportProblems(webview);
    await webview.close();
  }
  const webview = await openPage(harness);
  await show(webview, GOAL_FIXTURES['running-wave-2']());
  await webview.page.screenshot({ path: join(outDir, 'goal-chat-card.png') });
  reportProblems(webview);
  await webview.close();
}

const harness = await startWebviewHarness({ minify: mode !== 'profile', chromiumArgs: ['--enable-precise-memory-info'] });
try {
  if (mode === 'perf' || mode === 'profile' || mode === 'trace') await perf(harness);
  else if (mode === 'review') await review(harness);
  else if (mode === 'scv') await scv(harness);
  else if (mode === 'goal') await goal(harness);
  else await shots(harness);
  if (mode !== 'perf' && mode !== 'profile' && mode !== 'trace') console.log(`screenshots in ${outDir}`);
} finally {
  await harness.close();
}
