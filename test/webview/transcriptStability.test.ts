// The transcript holds still (issue #11), in a real browser with the real bundle. A running bash card above a pending
// sudo card, reached by the patches a turn sends (the tool card re-rendered in place from "pending" to "running"):
// the list that follows new content ends at the real end of the transcript, scrolling there is not pulled back, the
// sudo button's box is the same frame after frame, the spinner stands still while the run waits for the password,
// and while nothing happens nothing is re-rendered, re-measured, scrolled or scheduled. Before the fix, the card
// re-rendered in place kept a height measured before its vscode-badge had rendered: the list stopped 4 px short of
// the end and pulled back whoever scrolled there (in code-server the e2e's click on the sudo button never found it
// stable), and the spinner turned — 20 composited frames a second — while the run waited for the user.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { initialSessionState, type SessionState, type TranscriptItem } from '../../src/shared/sessionState';
import type { Patch } from '../../src/shared/statePatch';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { startWebviewHarness, type WebviewHarness, type WebviewPage } from './harness/webviewPage';

const SIDEBAR = { width: 300, height: 700 };
/** Animation frames watched for movement and idle work: a second at 60 Hz. */
const WATCHED_FRAMES = 60;
const COMMAND = 'sudo -n true || sudo true';
const ARGS = JSON.stringify({ command: COMMAND });

/**
 * Runs before the bundle: counts what the page does — ResizeObserver callbacks, DOM mutations, scroll events and
 * animation frames the app asks for — and keeps the native requestAnimationFrame for the test's own frame waits.
 */
const IDLE_COUNTERS = `
  window.__idle = { resize: 0, mutations: 0, scrolls: 0, appFrames: 0 };
  const NativeResizeObserver = window.ResizeObserver;
  window.ResizeObserver = class extends NativeResizeObserver {
    constructor(callback) { super((entries, observer) => { window.__idle.resize++; callback(entries, observer); }); }
  };
  const nativeFrame = window.requestAnimationFrame.bind(window);
  window.__testFrame = nativeFrame;
  window.requestAnimationFrame = (callback) => { window.__idle.appFrames++; return nativeFrame(callback); };
  document.addEventListener('scroll', () => window.__idle.scrolls++, { capture: true, passive: true });
  new MutationObserver((records) => { window.__idle.mutations += records.length; })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

interface IdleCounts {
  resize: number;
  mutations: number;
  scrolls: number;
  appFrames: number;
}
interface Watched {
  boxes: string[];
  counts: IdleCounts;
}
interface Scroll {
  scrollTop: number;
  end: number;
  following: boolean;
}

function baseState(): SessionState {
  const s = initialSessionState('embedded');
  s.core = { kind: 'embedded', status: 'ready', capabilities: ['checkpoint'] };
  s.anyLoggedIn = true;
  s.authed = true;
  s.run = { status: 'idle' };
  const reply = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}: the earlier turn explained what it changed and why.`).join(
    '\n\n',
  );
  s.items = [
    { kind: 'user', id: 'u1', text: 'Write e2e-bash-ok into bash-out.txt with bash', images: 0 },
    {
      kind: 'tool',
      id: 'c0',
      runId: 'r1',
      name: 'bash',
      args: JSON.stringify({ command: 'echo ok > out.txt' }),
      status: 'success',
      output: '',
      files: [],
    },
    { kind: 'assistant', id: 'a1', runId: 'r1', text: reply, thinking: '', streaming: false },
  ];
  return s;
}

const toolCard = (status: 'pending' | 'running'): TranscriptItem => ({
  kind: 'tool',
  id: 'c1',
  runId: 'r2',
  name: 'bash',
  args: ARGS,
  status,
  files: [],
});
const approval = (state: 'pending' | 'approved'): TranscriptItem => ({
  kind: 'approval',
  id: 'ap1',
  toolCallId: 'c1',
  runId: 'r2',
  tool: 'bash',
  risk: 'destructive',
  args: ARGS,
  createdAt: 0,
  state,
  ...(state === 'approved' ? { decision: 'yes' } : {}),
});

describe('the transcript holds still (real Chromium)', { timeout: 120_000 }, () => {
  let harness: WebviewHarness;
  let webview: WebviewPage;
  let page: Page;

  before(async () => {
    harness = await startWebviewHarness();
    webview = await harness.open({ viewport: SIDEBAR, initScripts: [IDLE_COUNTERS] });
    page = webview.page;
    await webview.snapshot(baseState());
    await page.locator(`[data-testid="${TEST_IDS.assistantMessage}"]`).waitFor();
    await reachRunningBashAndPendingSudo();
  });
  afterEach(() => assert.deepEqual(webview.problems, []));
  after(() => harness?.close());

  /** Sends one batch of patches, as the host does, and waits until the webview shows `rendered`. */
  async function patch(patches: Patch[], rendered: string): Promise<void> {
    await webview.patch(...patches);
    await page.locator(rendered).first().waitFor({ state: 'attached' });
  }

  /** The turn of the e2e's sudo check, one batch per step: each card renders, then changes in place. */
  async function reachRunningBashAndPendingSudo(): Promise<void> {
    const n = baseState().items.length;
    const card = (id: string, attrs: string) => `[data-testid="${id}"]${attrs}`;
    await patch(
      [
        { op: 'set', key: 'run', value: { status: 'running', runId: 'r2' } },
        { op: 'item', index: n, item: { kind: 'user', id: 'u2', text: 'Check that sudo works', images: 0 } },
        { op: 'item', index: n + 1, item: toolCard('pending') },
      ],
      card(TEST_IDS.toolCard, '[data-status="pending"]'),
    );
    await patch([{ op: 'item', index: n + 2, item: approval('pending') }], card(TEST_IDS.approvalCard, '[data-state="pending"]'));
    await patch(
      [
        { op: 'item', index: n + 2, item: approval('approved') },
        { op: 'item', index: n + 3, item: { kind: 'checkpoint', id: 'cp1', label: 'auto-before-destructive', auto: true } },
      ],
      card(TEST_IDS.approvalCard, '[data-state="approved"]'),
    );
    await patch([{ op: 'item', index: n + 1, item: toolCard('running') }], card(TEST_IDS.toolCard, '[data-status="running"]'));
    await patch(
      [
        { op: 'set', key: 'run', value: { status: 'waiting_input', runId: 'r2' } },
        { op: 'item', index: n + 4, item: { kind: 'sudo', id: 'sudo-1', command: COMMAND, state: 'pending' } },
      ],
      `[data-testid="${TEST_IDS.sudoCard}"] [data-testid="${TEST_IDS.sudoAnswer}"]`,
    );
    await frames(3);
  }

  /** Waits `n` animation frames (events, not time), with the native requestAnimationFrame. */
  function frames(n: number): Promise<void> {
    return page.evaluate(
      (count) =>
        new Promise<void>((resolve) => {
          const g = globalThis as any;
          const step = (left: number) => (left === 0 ? resolve() : g.__testFrame(() => step(left - 1)));
          step(count);
        }),
      n,
    );
  }

  /** The sudo button's box in each of `n` frames, and what the page did meanwhile. */
  function watch(n: number): Promise<Watched> {
    return page.evaluate(
      ({ count, selector }) =>
        new Promise<Watched>((resolve) => {
          const g = globalThis as any;
          const before = { ...g.__idle };
          const boxes: string[] = [];
          const step = () => {
            const r = g.document.querySelector(selector).getBoundingClientRect();
            boxes.push(`${r.x},${r.y} ${r.width}x${r.height}`);
            if (boxes.length < count) {
              g.__testFrame(step);
              return;
            }
            const now = g.__idle;
            resolve({
              boxes,
              counts: {
                resize: now.resize - before.resize,
                mutations: now.mutations - before.mutations,
                scrolls: now.scrolls - before.scrolls,
                appFrames: now.appFrames - before.appFrames,
              },
            });
          };
          g.__testFrame(step);
        }),
      { count: n, selector: `[data-testid="${TEST_IDS.sudoCard}"] [data-testid="${TEST_IDS.sudoAnswer}"]` },
    );
  }

  function scroll(): Promise<Scroll> {
    return page.evaluate((id) => {
      const g = globalThis as any;
      const t = g.document.querySelector(`[data-testid="${id}"]`);
      return { scrollTop: t.scrollTop, end: t.scrollHeight - t.clientHeight, following: g.document.querySelector('.jump-latest').hidden };
    }, TEST_IDS.transcript);
  }

  /** Scrolls the transcript as a user would, to `above` px above its end; resolves with where its scroll event found it. */
  function scrollTranscript(above: number): Promise<number> {
    return page.evaluate(
      ({ id, px }) =>
        new Promise<number>((resolve) => {
          const g = globalThis as any;
          const t = g.document.querySelector(`[data-testid="${id}"]`);
          t.addEventListener('scroll', () => resolve(t.scrollTop), { once: true });
          t.scrollTop = t.scrollHeight - t.clientHeight - px;
        }),
      { id: TEST_IDS.transcript, px: above },
    );
  }

  it('the transcript overflows (else nothing here could move)', async () => {
    const s = await scroll();
    assert.ok(s.end > 0, `the transcript fits in ${SIDEBAR.height}px: nothing to scroll`);
  });

  it('following new content, the list ends at the real end of the transcript', async () => {
    const s = await scroll();
    assert.ok(s.following, 'the list stopped following new content');
    assert.ok(
      Math.abs(s.end - s.scrollTop) <= 1,
      `the list follows to ${s.scrollTop}px, ${s.end - s.scrollTop}px short of the end (${s.end}px)`,
    );
  });

  it('scrolled up and back to the end (as a user, or a click scrolling the button into view), the list stays there', async () => {
    await scrollTranscript(200);
    const scrolled = await scrollTranscript(0);
    await frames(3);
    const s = await scroll();
    assert.equal(s.scrollTop, scrolled, `scrolled to ${scrolled}px, the list moved it to ${s.scrollTop}px`);
    assert.ok(s.following, 'back at the end, the list does not follow new content again');
    const watched = await watch(WATCHED_FRAMES);
    assert.deepEqual(
      new Set(watched.boxes),
      new Set([watched.boxes[0]]),
      `the sudo button moved: ${[...new Set(watched.boxes)].join(' → ')}`,
    );
  });

  it("while the run waits for the password nothing turns: the running bash card's spinner stands still", async () => {
    const animations = () =>
      page.evaluate(() => (globalThis as any).document.getAnimations().map((a: { animationName: string }) => a.animationName) as string[]);
    const runStatus = async (status: string) =>
      patch([{ op: 'set', key: 'run', value: { status, runId: 'r2' } }], `.app[data-run="${status}"]`);
    await runStatus('running');
    const running = await animations();
    assert.ok(running.includes('codicon-spin'), `a bash card that is really running turns its spinner; running: ${running.join(', ')}`);
    await runStatus('waiting_input');
    assert.deepEqual(await animations(), [], 'animations while the run waits for the user');
  });

  it('idle, waiting for the password: the sudo button holds still and nothing is re-rendered, measured, scrolled or scheduled', async () => {
    await frames(3);
    const watched = await watch(WATCHED_FRAMES);
    assert.equal(watched.boxes.length, WATCHED_FRAMES);
    assert.deepEqual(
      new Set(watched.boxes),
      new Set([watched.boxes[0]]),
      `the sudo button moved: ${[...new Set(watched.boxes)].join(' → ')}`,
    );
    assert.deepEqual(
      watched.counts,
      { resize: 0, mutations: 0, scrolls: 0, appFrames: 0 },
      `work done while idle over ${WATCHED_FRAMES} frames`,
    );
    assert.equal(
      await page.locator(`[data-testid="${TEST_IDS.toolCard}"][data-status="running"]`).count(),
      1,
      'no running bash card on screen',
    );
  });
});
