// Issue #18 "Done when", in code-server: an image pasted into the composer, sent to a model that cannot see, goes to
// the provider's vision model, and the message shows the hand-off note ("→ model"). Checked on the model server's
// requests (which model got the image) as well as in the UI.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { promptAgent, textTurn } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite, E2E_MODEL } from './harness/chatSuite';
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

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'a pasted image to a non-vision model goes to the vision model, and the message shows the hand-off note',
    check(async () => {
      await suite.settle();
      const { model } = suite.env();
      const composer = testId(chat(), TEST_IDS.composer).first();
      await composer.waitFor({ state: 'visible', timeout: 30_000 });
      // A real paste event with an image File, as the clipboard gives it.
      await composer.evaluate((el, base64) => {
        const g = globalThis as any;
        const bytes = Uint8Array.from(g.atob(base64), (c: string) => c.charCodeAt(0));
        const data = new g.DataTransfer();
        data.items.add(new g.File([bytes], 'shot.png', { type: 'image/png' }));
        (el as any).dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, PNG_BASE64);
      await chat().locator('.attachment img').first().waitFor({ state: 'visible', timeout: 10_000 });

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
});
