// Development aid (not a test, never shipped): builds the webview and a fake host into a temp folder, serves them
// with the real CSP, drives Debian's Chromium with playwright-core, and takes screenshots and rough measurements.
//   node webview/dev/run.mjs shots [outDir]   screenshots of fixture states (dark, light, high contrast)
//   node webview/dev/run.mjs perf             streaming 10k tokens at 1,000 deltas/s; a 2,000-message snapshot
//   node webview/dev/run.mjs review [outDir]  the "Review changes" list and the approval cards: screenshots and checks
//   node webview/dev/run.mjs scv [outDir]     an SCV core: the server-queue panel, progress lines, hidden controls
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';

const mode = process.argv[2] ?? 'shots';
const outDir = process.argv[3] ?? join(tmpdir(), 'catalyst-webview-shots');
const root = mkdtempSync(join(tmpdir(), 'catalyst-webview-dev-'));
const NONCE = 'devnonce123';

async function build() {
  const common = { bundle: true, minify: mode !== 'profile', logLevel: 'warning', legalComments: 'none' };
  await esbuild.build({ ...common, entryPoints: ['webview/main.ts'], outfile: join(root, 'webview.js'), platform: 'browser', format: 'iife', target: 'es2022' });
  await esbuild.build({ ...common, entryPoints: ['webview/dev/devHost.ts'], outfile: join(root, 'devHost.js'), platform: 'browser', format: 'iife', target: 'es2022' });
  await esbuild.build({ ...common, entryPoints: ['webview/styles.css'], outfile: join(root, 'webview.css') });
  mkdirSync(join(root, 'codicons'));
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join('node_modules/@vscode/codicons/dist', f), join(root, 'codicons', f));
  copyFileSync('webview/dev/theme.css', join(root, 'theme.css'));
  const csp = `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'self' 'nonce-${NONCE}'; font-src 'self'; img-src 'self' data:;`;
  writeFileSync(join(root, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="theme.css"><link rel="stylesheet" href="codicons/codicon.css"><link rel="stylesheet" href="webview.css">
</head><body class="vscode-dark"><div id="app"></div>
<script nonce="${NONCE}" src="devHost.js"></script><script nonce="${NONCE}" src="webview.js"></script></body></html>`);
}

function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    let body;
    try {
      body = readFileSync(path);
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function openPage(browser, port, theme = 'vscode-dark', size = { width: 420, height: 900 }) {
  const page = await browser.newPage({ viewport: size, bypassCSP: Boolean(process.env.EXTRA_CSS) });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.evaluate((t) => {
    document.body.className = t;
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  }, theme);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  if (process.env.EXTRA_CSS) await page.addStyleTag({ content: process.env.EXTRA_CSS });
  return { page, problems };
}

const VIEW = { placement: 'sidebar', slashCommands: [{ name: 'compact', description: 'Summarize older turns' }, { name: 'clear', description: 'Clear the transcript' }, { name: 'model', description: 'Pick a model', args: '<id>' }] };

async function snapshot(page, fixture, arg) {
  await page.evaluate(({ fixture, arg, view }) => {
    window.__host.send({ type: 'snapshot', seq: 1, state: window.__fixtures[fixture](arg), view });
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, { fixture, arg, view: VIEW });
}

async function shots(browser, port) {
  mkdirSync(outDir, { recursive: true });
  for (const theme of ['vscode-dark', 'vscode-light', 'vscode-high-contrast']) {
    const { page, problems } = await openPage(browser, port, theme);
    await snapshot(page, 'richState');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(outDir, `${theme}-bottom.png`) });
    await page.evaluate(() => { document.querySelector('.transcript').scrollTop = 0; });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(outDir, `${theme}-top.png`) });
    await page.evaluate(() => document.querySelector('[data-tool=edit]').scrollIntoView());
    await page.waitForTimeout(200);
    await page.click('[data-tool=edit] summary');
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, `${theme}-middle.png`) });
    console.log(theme, problems.length ? problems : 'no console errors');
    await page.close();
  }
  const { page, problems } = await openPage(browser, port);
  await snapshot(page, 'firstRunState');
  await page.screenshot({ path: join(outDir, 'first-run.png') });
  await snapshot(page, 'richState');
  await page.click('[data-testid=sessions-button]');
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(outDir, 'sessions.png') });
  await page.keyboard.press('Escape');
  await page.getByText('Allow Pattern…').first().click();
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(outDir, 'pattern.png') });
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=approval-card][data-state=pending]').last().focus();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'In memory' }).click();
  await page.click('[data-testid=composer-input]');
  await page.keyboard.type('/c');
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(outDir, 'slash.png') });
  console.log('other', problems.length ? problems : 'no console errors');
  console.log('posted', JSON.stringify(await page.evaluate(() => window.__posted)));
  await page.close();
}

async function review(browser, port) {
  mkdirSync(outDir, { recursive: true });
  const { page, problems } = await openPage(browser, port);
  await snapshot(page, 'richState');
  const rows = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=review-list-row]')].map((r) => `${r.dataset.state} ${r.dataset.path} | ${r.textContent}`));
  console.log('rows', JSON.stringify(await rows(), null, 1));
  await page.screenshot({ path: join(outDir, 'review-dark.png') });
  await page.evaluate(() => document.querySelector('.approval-error').closest('[data-testid=approval-card]').scrollIntoView());
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(outDir, 'review-card-error.png') });
  await page.locator('[data-testid=review-list-row][data-state=pending] vscode-button').first().click();
  await page.locator('[data-testid=review-list-row][data-state=approved] .review-path').first().click();
  await page.locator('[data-testid=approval-review]').first().click();
  // Keyboard: the summary collapses the list.
  await page.locator('.review-summary').focus();
  await page.keyboard.press('Enter');
  console.log('collapsed', await page.evaluate(() => !document.querySelector('.review-details').open));
  await page.keyboard.press('Enter');
  // A streamed delta must not touch the list; deciding the pending approval must.
  const marker = await page.evaluate(() => { const ul = document.querySelector('.review-rows'); ul.firstElementChild.dataset.marker = '1'; return ul.children.length; });
  await page.evaluate(() => window.__host.send({ type: 'patches', seq: 2, patches: [{ op: 'append', index: 1, field: 'text', text: ' more' }] }));
  await page.waitForTimeout(50);
  console.log('untouched by a delta', await page.evaluate(() => document.querySelector('.review-rows').firstElementChild.dataset.marker === '1'), marker);
  const index = await page.evaluate(() => window.__fixtures.richState().items.findIndex((i) => i.id === 'ap2'));
  await page.evaluate((index) => {
    const item = window.__fixtures.richState().items[index];
    window.__host.send({ type: 'patches', seq: 3, patches: [{ op: 'item', index, item: { ...item, state: 'approved', decision: 'yes', edited: true } }] });
  }, index);
  await page.waitForTimeout(50);
  console.log('after deciding', JSON.stringify(await rows(), null, 1));
  for (const theme of ['vscode-light', 'vscode-high-contrast']) {
    await page.evaluate((t) => (document.body.className = t), theme);
    await page.screenshot({ path: join(outDir, `review-${theme}.png`) });
  }
  // A core without approval_edited_content: the note on the file card.
  await page.evaluate((view) => {
    const state = window.__fixtures.richState();
    state.core.capabilities = ['allow_pattern'];
    window.__host.send({ type: 'snapshot', seq: 10, state, view });
  }, VIEW);
  await page.waitForTimeout(100);
  await page.locator('[data-testid=approval-card][data-state=pending]').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, 'review-no-edit-capability.png') });
  console.log('notes', JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('.approval-note, .approval-error')].map((n) => n.textContent))));
  console.log('sudo', JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('[data-testid=sudo-card] [data-testid=sudo-answer]')].map((n) => n.textContent))));
  console.log('posted', JSON.stringify((await page.evaluate(() => window.__posted)).filter((m) => m.type !== 'ready')));
  console.log(problems.length ? problems : 'no console errors');
  await page.close();
}

async function scv(browser, port) {
  mkdirSync(outDir, { recursive: true });
  const { page, problems } = await openPage(browser, port);
  await snapshot(page, 'scvState');
  const q = (id) => `[data-testid=server-queue-row][data-id="${id}"]`;
  const posted = () => page.evaluate(() => window.__posted.splice(0).filter((m) => m.type !== 'ready' && m.type !== 'listSessions'));
  const focused = () => page.evaluate(() => { const a = document.activeElement; return `${a.closest('li[data-id]')?.dataset.id ?? ''} ${a.dataset.testid ?? a.tagName}`; });
  let seq = 2;
  const setQueue = (queue) => page.evaluate(({ queue, seq }) => {
    window.__host.send({ type: 'patches', seq, patches: [{ op: 'set', key: 'serverQueue', value: queue }] });
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, { queue, seq: seq++ });
  const initial = await page.evaluate(() => window.__fixtures.scvState().serverQueue);
  await posted();
  console.log('shown', JSON.stringify(await page.evaluate(() => ({
    panel: document.querySelector('[data-testid=server-queue]').hidden === false,
    header: document.querySelector('.server-queue-title').textContent,
    rows: [...document.querySelectorAll('[data-testid=server-queue-row]')].map((r) => `${r.dataset.id}@${r.dataset.revision} up:${!r.querySelector('[data-testid=server-queue-up]').disabled} down:${!r.querySelector('[data-testid=server-queue-down]').disabled}`),
    fullTextInTitle: document.querySelectorAll('.server-queue-prompt')[1].title.split('\n').length,
    pausePressed: document.querySelector('[data-testid=server-queue-pause]').getAttribute('aria-pressed'),
    chipHidden: document.querySelector('[data-testid=queued-prompt]').hidden,
    thinking: document.querySelectorAll('[data-testid=thinking-block]').length,
    sessionsButtonHidden: document.querySelector('[data-testid=sessions-button]').hidden,
    steerHidden: document.querySelector('[data-testid=steer-button]').hidden,
    send: `${document.querySelector('[data-testid=send-button]').textContent} | ${document.querySelector('[data-testid=send-button]').getAttribute('aria-label')} | ${document.querySelector('[data-testid=send-button]').title}`,
    modePicker: `${document.querySelector('[data-testid=approval-mode-picker]').disabled} | ${document.querySelector('[data-testid=approval-mode-picker]').title}`,
    models: document.querySelectorAll('[data-testid=model-picker] option').length,
    reasoningHidden: document.querySelector('[data-testid=reasoning-picker]').hidden,
    checkpointActions: document.querySelectorAll('[data-testid=checkpoint-row] .checkpoint-actions').length,
    progress: [...document.querySelectorAll('[data-testid=tool-card]')].map((c) => `${c.dataset.tool}:${c.querySelector('[data-testid=tool-progress]').hidden ? '-' : c.querySelector('[data-testid=tool-progress]').textContent.split('\n').length}`),
    summary: document.querySelector('.approval-summary')?.textContent,
    reviewButton: document.querySelectorAll('[data-testid=approval-card] [data-testid=approval-review]').length,
    note: document.querySelector('.approval-note')?.textContent,
  }))));
  for (const theme of ['vscode-dark', 'vscode-light', 'vscode-high-contrast']) {
    await page.evaluate((t) => (document.body.className = t), theme);
    await page.screenshot({ path: join(outDir, `scv-${theme}.png`) });
  }
  await page.evaluate(() => (document.body.className = 'vscode-dark'));
  await page.click(`${q('q-2')} [data-testid=server-queue-up]`);
  await page.click(`${q('q-2')} [data-testid=server-queue-down]`);
  await page.click(`${q('q-3')} [data-testid=server-queue-remove]`);
  await page.click('[data-testid=server-queue-pause]');
  console.log('buttons', JSON.stringify(await posted()));
  // Keyboard: Edit → type → Enter saves; Escape cancels; unchanged text sends nothing; Shift+Enter is a newline.
  await page.focus(`${q('q-1')} [data-testid=server-queue-edit]`);
  await page.keyboard.press('Enter');
  console.log('editing focus', await focused());
  await page.keyboard.type(' Now.');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('Twice');
  await page.screenshot({ path: join(outDir, 'scv-editing.png') });
  await page.keyboard.press('Enter');
  console.log('after save focus', await focused());
  await page.keyboard.press('Enter');
  await page.keyboard.type('changed');
  await page.keyboard.press('Escape');
  console.log('after escape focus', await focused());
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  console.log('empty note', await page.evaluate(() => document.querySelector('.server-queue-note')?.textContent));
  await page.keyboard.press('Escape');
  console.log('edits', JSON.stringify(await posted()));
  // The server moves q-2 up while focus is on its Move Up button: focus follows the entry.
  await page.focus(`${q('q-2')} [data-testid=server-queue-up]`);
  const [e1, e2, e3] = initial.entries;
  await setQueue({ paused: false, entries: [{ ...e2, revision: 2 }, e1, e3] });
  console.log('moved', JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('[data-testid=server-queue-row]')].map((r) => `${r.dataset.id}@${r.dataset.revision}`))), 'focus', await focused());
  // A removal while focus is on that row's Remove: the row now in its place gets it.
  await page.focus(`${q('q-1')} [data-testid=server-queue-remove]`);
  await setQueue({ paused: false, entries: [{ ...e2, revision: 2 }, e3] });
  console.log('removed: focus', await focused());
  // An edit of a prompt that leaves the queue meanwhile goes back to the composer.
  await page.click(`${q('q-3')} [data-testid=server-queue-edit]`);
  await page.keyboard.press('End');
  await page.keyboard.type(' (edited)');
  await setQueue({ paused: false, entries: [{ ...e2, revision: 2 }] });
  console.log('edit lost → composer', JSON.stringify(await page.evaluate(() => [document.querySelector('[data-testid=composer-input]').value.slice(-30), document.querySelector('.composer-hint').textContent])));
  // Paused and empty: still shown (so the user can resume), with the hint and Resume.
  await setQueue({ paused: true, entries: [] });
  console.log('paused empty', JSON.stringify(await page.evaluate(() => ({
    shown: !document.querySelector('[data-testid=server-queue]').hidden,
    header: document.querySelector('.server-queue-title').textContent,
    hint: document.querySelector('.server-queue-hint').textContent,
    toggle: `${document.querySelector('[data-testid=server-queue-pause]').textContent} pressed=${document.querySelector('[data-testid=server-queue-pause]').getAttribute('aria-pressed')}`,
  }))));
  await page.screenshot({ path: join(outDir, 'scv-paused.png') });
  await page.click('[data-testid=server-queue-pause]');
  console.log('resume', JSON.stringify(await posted()));
  await setQueue({ paused: false, entries: [] });
  console.log('empty, running: hidden', await page.evaluate(() => document.querySelector('[data-testid=server-queue]').hidden));
  await page.evaluate((seq) => window.__host.send({ type: 'patches', seq, patches: [{ op: 'set', key: 'run', value: { status: 'idle' } }] }), seq++);
  await page.waitForTimeout(50);
  console.log('idle send', await page.evaluate(() => `${document.querySelector('[data-testid=send-button]').textContent} | ${document.querySelector('[data-testid=send-button]').getAttribute('aria-label')}`));
  // The tool finishes: its progress lines give way to the output.
  await page.evaluate((seq) => {
    const state = window.__fixtures.scvState();
    const index = state.items.findIndex((i) => i.id === 'call-2');
    window.__host.send({ type: 'patches', seq, patches: [{ op: 'item', index, item: { ...state.items[index], status: 'success', output: 'ok' } }] });
  }, seq++);
  await page.waitForTimeout(50);
  console.log('finished tool progress hidden', await page.evaluate(() => document.querySelector('[data-tool=bash] [data-testid=tool-progress]').hidden));
  // The slash popup offers no /sessions, /undo or /steer.
  await page.click('[data-testid=composer-input]');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('/');
  await page.waitForTimeout(50);
  console.log('slash', await page.evaluate(() => [...document.querySelectorAll('.completion-label')].map((l) => l.textContent).join(' ')));
  console.log(problems.length ? problems : 'no console errors');
  await page.close();
}

async function perf(browser, port) {
  const { page, problems } = await openPage(browser, port, 'vscode-dark', { width: 600, height: 900 });
  let cdp;
  if (mode === 'trace') await browser.startTracing(page, { categories: ['devtools.timeline', 'blink', 'toplevel'] });
  if (mode === 'profile') {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const stream = await page.evaluate(async (view) => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const state = window.__fixtures.richState();
    state.run = { status: 'running', runId: 'r1' };
    state.items = [{ kind: 'user', id: 'u1', text: 'Write a long answer', images: 0 }, { kind: 'assistant', id: 'a1', runId: 'r1', text: '', thinking: '', streaming: true }];
    window.__host.send({ type: 'snapshot', seq: 1, state, view });
    await frame(); await frame();
    const text = window.__fixtures.longReply(40_000);
    const chunks = text.match(/[\s\S]{1,4}/g);
    const longTasks = [];
    new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => ({ at: e.startTime, ms: Math.round(e.duration) })))).observe({ type: 'longtask' });
    const frames = [];
    let running = true;
    let last = performance.now();
    const loop = (t) => { frames.push(t - last); last = t; if (running) requestAnimationFrame(loop); };
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
        if (sent >= chunks.length) { clearInterval(timer); resolve(); }
      }, 16);
    });
    const lastDelta = performance.now();
    window.__host.send({ type: 'patches', seq: seq++, patches: [{ op: 'item', index: 1, item: { kind: 'assistant', id: 'a1', runId: 'r1', text, thinking: '', streaming: false } }] });
    let settled = 0;
    for (;;) {
      await frame();
      const el = document.querySelector('[data-testid=assistant-message]');
      if (el && !el.hasAttribute('aria-busy')) { settled = performance.now() - lastDelta; break; }
    }
    running = false;
    const settledAt = performance.now();
    console.timeStamp('stream-settled');
    const highlighted = async () => { while (document.querySelector('code[data-lang]')) await new Promise((r) => setTimeout(r, 50)); };
    const idleStart = performance.now();
    await highlighted();
    const highlightDoneMs = Math.round(performance.now() - idleStart);
    const streamedHtml = document.querySelector('[data-testid=assistant-message] .markdown').innerHTML;
    window.__host.send({ type: 'snapshot', seq: 100, state: { ...state, items: [state.items[0], { kind: 'assistant', id: 'a1', text, thinking: '', streaming: false }] }, view });
    await frame(); await frame();
    await highlighted();
    const freshHtml = document.querySelector('[data-testid=assistant-message] .markdown').innerHTML;
    const sorted = frames.slice(2).sort((a, b) => a - b);
    return {
      deltas: chunks.length, seconds: ((lastDelta - start) / 1000).toFixed(1), settledMs: Math.round(settled),
      p95FrameMs: sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1), maxFrameMs: sorted[sorted.length - 1]?.toFixed(1),
      longTasksWhileStreaming: longTasks.filter((t) => t.at < settledAt).map((t) => t.ms), longTasksAfter: longTasks.filter((t) => t.at >= settledAt).map((t) => t.ms),
      streamedEqualsFresh: streamedHtml === freshHtml, highlightDoneMs, codeBlocks: document.querySelectorAll('[data-testid=code-block]').length,
    };
  }, VIEW);
  console.log('stream', JSON.stringify(stream));
  if (mode === 'trace') {
    printTrace(JSON.parse((await browser.stopTracing()).toString()));
    await page.close();
    return;
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    printProfile(profile);
    await page.close();
    return;
  }

  const big = await page.evaluate(async (view) => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const state = window.__fixtures.longState(2000);
    const t0 = performance.now();
    window.__host.send({ type: 'snapshot', seq: 1000, state, view });
    while (!document.querySelector('.transcript').textContent.includes('Question number 1998')) await frame();
    const t1 = performance.now();
    const mounted = document.querySelectorAll('.vl-items > .item').length;
    const t = document.querySelector('.transcript');
    const atBottom = Math.abs(t.scrollHeight - t.scrollTop - t.clientHeight) < 2;
    const heap = performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : undefined;
    return { items: state.items.length, firstFrameMs: Math.round(t1 - t0), mounted, atBottom, heapMB: heap };
  }, VIEW);
  console.log('snapshot2000', JSON.stringify(big));

  // Scroll to the top and back: anchoring and mounting must keep up.
  const scroll = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const t = document.querySelector('.transcript');
    t.scrollTop = 0;
    await frame(); await frame(); await frame();
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
  console.log('typing', JSON.stringify({ keys: latency.length, p50: latency[Math.floor(latency.length / 2)]?.toFixed(1), max: latency[latency.length - 1]?.toFixed(1) }));
  console.log('problems', problems.length ? problems : 'none');
  await page.close();
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
  for (const [k, v] of [...sums].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) console.log(`${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(6)}x  ${k}`);
  // CPU time (tdur) of top-level main-thread tasks: unlike wall time, not stretched by other processes on the machine.
  const tasks = events.filter((e) => e.ph === 'X' && e.tid === main?.tid && e.tdur !== undefined && /RunTask/.test(e.name));
  if (!tasks.length) console.log('X event names with tdur', [...new Set(events.filter((e) => e.ph === 'X' && e.tid === main?.tid && e.tdur !== undefined).map((e) => e.name))].slice(0, 30));
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'stream-settled');
  const streaming = tasks.filter((e) => !mark || e.ts < mark.ts);
  const cpuStreaming = streaming.map((e) => e.tdur / 1000).sort((a, b) => a - b);
  console.log('tasks while streaming (CPU ms)', { n: cpuStreaming.length, p95: cpuStreaming[Math.floor(cpuStreaming.length * 0.95)]?.toFixed(1), p99: cpuStreaming[Math.floor(cpuStreaming.length * 0.99)]?.toFixed(1), max: cpuStreaming.at(-1)?.toFixed(1), over50: cpuStreaming.filter((x) => x > 50).map((x) => Math.round(x)) });
  const cpu = tasks.map((e) => e.tdur / 1000).sort((a, b) => a - b);
  const wall = tasks.map((e) => e.dur / 1000).sort((a, b) => a - b);
  console.log('tasks', { n: cpu.length, cpuP95: cpu[Math.floor(cpu.length * 0.95)]?.toFixed(1), cpuMax: cpu.at(-1)?.toFixed(1), cpuOver50: cpu.filter((x) => x > 50).map((x) => Math.round(x)), wallMax: wall.at(-1)?.toFixed(1) });
  const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X' && e.tid === main?.tid);
  const begins = events.filter((e) => e.name === 'Layout' && e.tid === main?.tid && e.args?.beginData);
  const dirty = begins.map((e) => e.args?.beginData?.dirtyObjects ?? 0).sort((a, b) => a - b);
  const q = (p) => dirty[Math.floor(dirty.length * p)];
  console.log('layout dirtyObjects', { n: dirty.length, p50: q(0.5), p90: q(0.9), p99: q(0.99), total: begins.at(-1)?.args?.beginData?.totalObjects });
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

await build();
const server = await serve();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'],
});
try {
  if (mode === 'perf' || mode === 'profile' || mode === 'trace') await perf(browser, server.address().port);
  else if (mode === 'review') await review(browser, server.address().port);
  else if (mode === 'scv') await scv(browser, server.address().port);
  else await shots(browser, server.address().port);
} finally {
  await browser.close();
  server.close();
  rmSync(root, { recursive: true, force: true });
}
