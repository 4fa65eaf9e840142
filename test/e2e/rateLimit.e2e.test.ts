// Issue #18, in code-server: when the provider answers 429 with a long Retry-After, the chat says until when (the core's
// error notice) and the status bar item shows "rate limited until HH:MM" — where the user looks — and the core does not
// spend retries that cannot succeed before then.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chatRequests, promptAgent } from './harness/approvals';
import { waitForIdle } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';

describe('a rate-limited provider says until when (issue #18)', { timeout: 600_000 }, () => {
  const suite = chatSuite();
  const { check, chat } = suite;

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    'a 429 with Retry-After: the chat notice and the status bar say "rate limited until HH:MM"',
    check(async () => {
      await suite.settle();
      const { page, model } = suite.env();
      const before = chatRequests(model).length;
      model.enqueue({ status: 429, retryAfter: 900 });
      const sentAt = Date.now();
      await promptAgent(chat(), 'are you there?');
      const notice = chat()
        .getByText(/HTTP 429 .*rate limited until \d\d:\d\d \(in 15m\)/)
        .first();
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      await waitForIdle(chat());

      const until = new Date(sentAt + 900_000);
      const clocks = [until, new Date(until.getTime() + 60_000)].map(
        (d) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`,
      );
      const item = page.locator('#workbench\\.parts\\.statusbar .statusbar-item').filter({ hasText: /rate limited until/ });
      await item.waitFor({ state: 'visible', timeout: 15_000 });
      const text = (await item.innerText()).trim();
      assert.ok(
        clocks.some((c) => text.includes(`rate limited until ${c}`)),
        `status bar "${text}" names ${clocks.join(' or ')}`,
      );
      assert.equal(chatRequests(model).length, before + 1, 'no retry before the limit ends');
    }),
  );
});
