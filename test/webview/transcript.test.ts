// The transcript's views in real Chromium, from the real shell under its CSP: streamed Markdown re-renders only its
// growing block, thinking and typing, tool cards changing state in place, SCV's progress lines, and the clicks that
// reach the host (files, links, code blocks, notices, checkpoints).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { AssistantItem, ToolItem, TranscriptItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { longReply } from '../../webview/dev/fixtures';
import { nodeTags, tagNodes } from './harness/nodeTags';
import { readyState, runningState } from './harness/states';
import type { WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const BLOCKS = `${byTestId(TEST_IDS.assistantMessage)} .markdown > .md-block`;

describe('transcript views (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;

  useWebviewPage((opened) => {
    webview = opened;
    page = opened.page;
  });

  describe('a streamed reply', () => {
    const reply = (text: string, streaming = true): AssistantItem => ({
      kind: 'assistant',
      id: 'a1',
      runId: 'r1',
      text,
      thinking: '',
      streaming,
    });
    const prompt: TranscriptItem = { kind: 'user', id: 'u1', text: 'Explain the cache', images: 0 };

    it('a delta re-renders only the growing block (plain words only extend its text); earlier blocks keep their DOM nodes', async () => {
      await webview.snapshot(runningState([prompt, reply('First paragraph.\n\nSecond paragraph.\n\nThe growing')]));
      await page.locator(BLOCKS).nth(2).waitFor();
      assert.equal(await tagNodes(page, `${BLOCKS} > p`, 'p'), 3);

      await webview.patch({ op: 'append', index: 1, field: 'text', text: ' paragraph keeps growing' });
      await page.locator(BLOCKS).nth(2).getByText('keeps growing').waitFor();
      assert.deepEqual(await nodeTags(page, `${BLOCKS} > p`), ['p0', 'p1', 'p2'], 'plain words join the growing paragraph: no new nodes');

      await webview.patch({ op: 'append', index: 1, field: 'text', text: ' with **markup**' });
      await page.locator(`${BLOCKS} > p > strong`).getByText('markup').waitFor();
      assert.deepEqual(await nodeTags(page, `${BLOCKS} > p`), ['p0', 'p1', null], 'markup re-renders the growing paragraph, only it');

      await webview.patch({ op: 'append', index: 1, field: 'text', text: '.\n\nA fourth block' });
      await page.locator(BLOCKS).nth(3).getByText('A fourth block').waitFor();
      const tags = await nodeTags(page, `${BLOCKS} > p`);
      assert.deepEqual(tags.slice(0, 2), ['p0', 'p1'], 'completing a block leaves the blocks before it alone');
      assert.equal(await page.locator(BLOCKS).count(), 4);
    });

    it('streamed in small deltas, a long reply ends as the same DOM as the same text rendered at once', async () => {
      const text = longReply(4000);
      await webview.snapshot(runningState([prompt, reply('')]));
      await page.locator(`${byTestId(TEST_IDS.assistantMessage)} .typing`).waitFor();
      for (const chunk of text.match(/[\s\S]{1,40}/g) ?? []) await webview.patch({ op: 'append', index: 1, field: 'text', text: chunk });
      await webview.patch({ op: 'item', index: 1, item: reply(text, false) });
      const markdown = `${byTestId(TEST_IDS.assistantMessage)} .markdown`;
      const settledHtml = () =>
        page
          .waitForFunction((selector) => {
            const d = (globalThis as any).document;
            const el = d.querySelector(selector);
            // Rendered from the snapshot (untagged), no longer busy, every code block highlighted.
            return el && !el.__catalystTag && !el.closest('[aria-busy]') && !d.querySelector('code[data-lang]') ? el.innerHTML : false;
          }, markdown)
          .then((h) => h.jsonValue() as Promise<string>);
      const streamed = await settledHtml();
      await tagNodes(page, markdown, 'streamed');
      await webview.snapshot(readyState([prompt, reply(text, false)]));
      const fresh = await settledHtml();
      assert.ok(streamed.includes('<pre>'), 'the reply has no code block: the comparison would prove less');
      assert.equal(streamed, fresh);
    });

    it('the fonts of headings, bold, italic and code are in use from the start: a hidden sample with a reply’s styles', async () => {
      await webview.snapshot(readyState([prompt, reply('### Heading\n\n**bold** *italic* `code` **`both`**', false)]));
      await page.locator(`${BLOCKS} strong > code`).waitFor();
      const sample = page.locator('.md-font-sample');
      assert.equal(await sample.getAttribute('aria-hidden'), 'true');
      assert.equal(await sample.isVisible(), false, 'laid out, never seen');
      const fonts = (root: string) =>
        page.evaluate(
          (root) =>
            ['h3', 'strong', 'em', ':not(strong) > code', 'strong > code'].map((sel) => {
              const g = globalThis as any;
              const el = g.document.querySelector(`${root} ${sel}`);
              return el ? g.getComputedStyle(el).font : `no ${sel}`;
            }),
          root,
        );
      assert.deepEqual(await fonts('.md-font-sample'), await fonts(byTestId(TEST_IDS.assistantMessage)));
    });

    it('is busy while it streams and settles when the final text arrives, keeping its blocks', async () => {
      const message = page.locator(byTestId(TEST_IDS.assistantMessage));
      await webview.snapshot(runningState([prompt, reply('One.\n\nTwo')]));
      await page.locator(BLOCKS).nth(1).waitFor();
      assert.equal(await message.getAttribute('aria-busy'), 'true');
      await tagNodes(page, `${BLOCKS} > p`, 'p');
      await webview.patch({ op: 'item', index: 1, item: reply('One.\n\nTwo, done.', false) });
      await page.locator(`${byTestId(TEST_IDS.assistantMessage)}:not([aria-busy])`).waitFor();
      assert.deepEqual((await nodeTags(page, `${BLOCKS} > p`))[0], 'p0');
      assert.equal((await page.locator(BLOCKS).nth(1).textContent())?.trim(), 'Two, done.');
    });

    it('before any text: the typing indicator, or the open thinking block that replaces it', async () => {
      await webview.snapshot(runningState([prompt, reply('')]));
      await page.locator(`${byTestId(TEST_IDS.assistantMessage)} .typing`).waitFor();
      await webview.patch({ op: 'append', index: 1, field: 'thinking', text: 'Look at app.ts first.' });
      const thinking = page.locator(byTestId(TEST_IDS.thinking));
      await thinking.waitFor();
      assert.equal(await page.locator(`${byTestId(TEST_IDS.assistantMessage)} .typing`).count(), 0, 'thinking shown: no typing dots');
      assert.equal(await thinking.getAttribute('open'), '', 'open while the model only thinks');
      assert.equal(await thinking.locator('.thinking-label').textContent(), 'Thinking…');
      await webview.patch({ op: 'append', index: 1, field: 'text', text: 'The cache lives in memory.' });
      await page.locator(`${byTestId(TEST_IDS.thinking)}:not([open])`).waitFor();
      assert.equal(await thinking.locator('.thinking-label').textContent(), 'Thought process');
    });

    it('an SCV core (no thinking stream) shows no thinking block', async () => {
      const state = readyState([prompt, { ...reply('The answer.', false), thinking: 'never shown' }], 'scv', [
        'server_queue',
        'tool_progress',
      ]);
      await webview.snapshot(state);
      await page.locator(BLOCKS).first().waitFor();
      assert.equal(await page.locator(byTestId(TEST_IDS.thinking)).count(), 0);
    });
  });

  describe('tool cards', () => {
    const tool = (status: ToolItem['status'], extra: Partial<ToolItem> = {}): ToolItem => ({
      kind: 'tool',
      id: 'c1',
      runId: 'r1',
      name: 'bash',
      args: JSON.stringify({ command: 'npm test' }),
      status,
      files: [],
      ...extra,
    });
    const card = byTestId(TEST_IDS.toolCard);

    it('pending → running → done in place: the badge and the spinner follow the status, the card stays the same node', async () => {
      await webview.snapshot(runningState([tool('pending')]));
      await page.locator(`${card}[data-status="pending"]`).waitFor();
      await tagNodes(page, card, 'card');
      assert.equal(await page.locator(`${card} .badge`).textContent(), 'pending');
      await webview.patch({ op: 'item', index: 0, item: tool('running') });
      await page.locator(`${card}[data-status="running"]`).waitFor();
      assert.equal(await page.locator(`${card} .tool-header .codicon-loading.codicon-modifier-spin`).count(), 1, 'a running tool spins');
      await webview.patch({ op: 'item', index: 0, item: tool('success', { output: 'Tests: 12 passed' }) });
      await page.locator(`${card}[data-status="success"]`).waitFor();
      assert.equal(await page.locator(`${card} .badge`).textContent(), 'done');
      assert.equal(await page.locator(`${card} .codicon-loading`).count(), 0, 'a finished tool does not spin');
      assert.deepEqual(await nodeTags(page, card), ['card0'], 'the card was re-rendered in place');
    });

    it('expanded, it shows the arguments and the output; a failed tool says so', async () => {
      await webview.snapshot(readyState([tool('failed', { output: 'npm ERR! missing script: test' })]));
      await page.locator(`${card}[data-status="failed"]`).waitFor();
      assert.equal(await page.locator(`${card} .badge`).textContent(), 'failed');
      assert.equal(await page.locator(`${card} .tool-body`).textContent(), '', 'the body is built only when opened');
      await page.locator(`${card} summary`).click();
      await page.locator(`${card} .tool-body`).getByText('missing script').waitFor();
      assert.deepEqual(await page.locator(`${card} .section-title`).allTextContents(), ['Arguments', 'Output']);
    });

    it('SCV progress lines show while the tool runs and give way to its output when it finishes', async () => {
      const progress = ['> vitest run', ' ✓ parses defaults (3 ms)'];
      const state = readyState([tool('running', { progress })], 'scv', ['server_queue', 'tool_progress']);
      state.run = { status: 'running', runId: 'r1' };
      await webview.snapshot(state);
      const lines = page.locator(`${card} ${byTestId(TEST_IDS.toolProgress)}`);
      await lines.waitFor();
      assert.equal(await lines.textContent(), progress.join('\n'));
      await webview.patch({ op: 'item', index: 0, item: tool('success', { progress, output: 'ok' }) });
      await page.locator(`${card}[data-status="success"]`).waitFor();
      assert.equal(await lines.isHidden(), true);
    });
  });

  describe('clicks that reach the host', () => {
    it("a changed file, a workspace link and a code block's Copy post openFile, openFile with the line, and copy", async () => {
      const text = 'See [the config](src/config.ts#L12).\n\n```ts\nconst a = 1;\n```\n';
      await webview.snapshot(
        readyState([
          { kind: 'tool', id: 'c1', name: 'edit', args: JSON.stringify({ path: 'src/app.ts' }), status: 'success', files: ['src/app.ts'] },
          { kind: 'assistant', id: 'a1', text, thinking: '', streaming: false },
        ]),
      );
      webview.skipPosted();
      await page.locator(`${byTestId(TEST_IDS.toolCard)} .file-chip`).click();
      await page.getByRole('link', { name: 'the config' }).click();
      await page.locator(`${byTestId(TEST_IDS.codeBlock)} [data-code-action="copy"]`).click();
      assert.deepEqual(await webview.postedUntil('copy'), [
        { type: 'openFile', path: 'src/app.ts' },
        { type: 'openFile', path: 'src/config.ts', line: 12 },
        { type: 'copy', text: 'const a = 1;' },
      ]);
    });

    it("a notice's button asks the host for its fix", async () => {
      await webview.snapshot(
        readyState([{ kind: 'notice', id: 'n1', level: 'error', text: 'Authentication failed.', code: 'auth', action: 'login' }]),
      );
      await page.locator(byTestId(TEST_IDS.notice)).getByText('Log In').click();
      assert.deepEqual(await webview.nextPosted('action'), { type: 'action', action: 'login' });
    });

    it('a checkpoint row compares and restores with a checkpointing core; an SCV core shows it without actions', async () => {
      const row = byTestId(TEST_IDS.checkpointRow);
      const checkpoint: TranscriptItem = { kind: 'checkpoint', id: 'cp-1', label: 'auto-before-destructive', auto: true };
      await webview.snapshot(readyState([checkpoint]));
      webview.skipPosted();
      await page.locator(`${row} ${byTestId(TEST_IDS.checkpointCompare)}`).click();
      await page.locator(`${row} ${byTestId(TEST_IDS.checkpointRestore)}`).click();
      assert.deepEqual(await webview.postedUntil('checkpointAction'), [{ type: 'checkpointAction', id: 'cp-1', action: 'compare' }]);
      assert.deepEqual(await webview.postedUntil('checkpointAction'), [{ type: 'checkpointAction', id: 'cp-1', action: 'restore' }]);

      await webview.snapshot(readyState([checkpoint], 'scv', ['server_queue', 'tool_progress']));
      await page.locator(`${row} .checkpoint-kind`).waitFor();
      await page.locator(`${row} .checkpoint-actions`).waitFor({ state: 'detached' });
      assert.equal(
        await page
          .locator(row)
          .textContent()
          .then((t) => t?.includes('Checkpoint: before agent edits')),
        true,
      );
    });
  });
});
