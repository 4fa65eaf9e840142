// Issue #18 "Done when", in code-server: an image pasted into the composer, sent to a model that cannot see, goes to
// the provider's vision model, and the message shows the hand-off note ("→ model"). Checked on the model server's
// requests (which model got the image) as well as in the UI.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { promptAgent, textTurn } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite, E2E_MODEL } from './harness/chatSuite';
import { pickQuickItem, quickInputAsk, quickPickRow } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const VISION_MODEL = 'e2e-vision-mini';
/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const chatRequests = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));

describe('vision hand-off (issue #18)', { timeout: 600_000 }, () => {
  const suite = chatSuite({
    beforeLaunch: ({ model }) => {
      const caps = (vision: boolean) => ({ context_window: 100_000, supports_vision: vision, reasoning: { supported: false } });
      model.setModelsInfo({ [E2E_MODEL]: { capabilities: caps(false) }, [VISION_MODEL]: { capabilities: caps(true) } });
    },
  });
  const { check, chat } = suite;

  /** A real paste event with an image File in the composer, as the clipboard gives it; waits for its thumbnail. */
  async function pasteImage(): Promise<void> {
    const composer = testId(chat(), TEST_IDS.composer).first();
    await composer.waitFor({ state: 'visible', timeout: 30_000 });
    const before = await chat().locator('.attachment img').count();
    await composer.evaluate((el, base64) => {
      const g = globalThis as any;
      const bytes = Uint8Array.from(g.atob(base64), (c: string) => c.charCodeAt(0));
      const data = new g.DataTransfer();
      data.items.add(new g.File([bytes], 'shot.png', { type: 'image/png' }));
      (el as any).dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
    await chat().locator('.attachment img').nth(before).waitFor({ state: 'visible', timeout: 10_000 });
  }

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'a pasted image to a non-vision model goes to the vision model, and the message shows the hand-off note',
    check(async () => {
      await suite.settle();
      const { model } = suite.env();
      await pasteImage();

      model.enqueue(textTurn('e2e-vision-seen: one pixel.'));
      await promptAgent(chat(), 'what is in this picture?');
      await waitForAssistantText(chat(), 'e2e-vision-seen');
      await waitForIdle(chat());

      const note = testId(chat(), TEST_IDS.visionNote).first();
      await note.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await note.innerText(), new RegExp(`→ ${VISION_MODEL}`));
      assert.match(String(await note.getAttribute('title')), new RegExp(`vision handoff: ${E2E_MODEL} → ${VISION_MODEL}`));

      const request = await waitUntil(() => chatRequests(model.requests).at(-1), { timeoutMs: 10_000, what: 'the chat request' });
      assert.equal(request.body.model, VISION_MODEL, 'the turn went to the vision model');
      const user = request.body.messages.filter((m: any) => m.role === 'user').at(-1);
      const image = user.content.find((p: any) => p.type === 'image_url');
      assert.equal(image?.image_url?.url, `data:image/png;base64,${PNG_BASE64}`, 'with the pasted image');
    }),
  );

  it(
    '/vision switches to describe mode: the vision model describes the image, the chosen model answers without it',
    check(async () => {
      await suite.settle();
      const { page, model, workspace } = suite.env();
      await promptAgent(chat(), '/vision');
      await pickQuickItem(page, 'Mode: Switch');
      await pickQuickItem(page, 'Describe: the vision model describes');
      await waitUntil(async () => (await quickPickRow(page, 'Mode: Describe').count()) > 0, {
        timeoutMs: 30_000,
        what: 'the settings shown again from the core’s answer',
      });
      assert.match((await quickInputAsk(page)).title, /Vision Settings/);
      await page.keyboard.press('Escape');
      const saved = JSON.parse(readFileSync(join(workspace, '.catalyst-code', 'vision.json'), 'utf8'));
      assert.equal(saved.mode, 'describe');

      const before = chatRequests(model.requests).length;
      model.enqueue(textTurn('A single red pixel.'), textTurn('e2e-described: it is one pixel.'));
      await pasteImage();
      await promptAgent(chat(), 'and this one?');
      await waitForAssistantText(chat(), 'e2e-described');
      await waitForIdle(chat());
      const note = testId(chat(), TEST_IDS.visionNote).nth(1);
      await note.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await note.innerText(), new RegExp(`described by ${VISION_MODEL}`));

      const [describe, main] = chatRequests(model.requests).slice(before);
      assert.equal(describe.body.model, VISION_MODEL);
      assert.equal(main.body.model, E2E_MODEL, 'the chosen model keeps the turn');
      // (The first check's turn, with its image, is earlier history: the new prompt is what must carry none.)
      const prompt = main.body.messages.filter((m: any) => m.role === 'user').at(-1);
      assert.equal(typeof prompt.content, 'string', 'the new prompt carries no image part');
      assert.match(prompt.content, /^and this one\?\n\n\[The user attached 1 image\.[\s\S]*A single red pixel\./);
    }),
  );
});
