// Issue #15 "Done when", in code-server: `/skills` lists a project skill in the chat; "Catalyst: Apply Skill…" from the
// palette picks it, takes a task, and runs it — the scripted model's request carries the skill's instructions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { promptAgent, textTurn } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle, waitForUserText } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { pickQuickItem, runCommand, typeInInputBox } from './harness/quickInput';
import { waitUntil } from './harness/wait';

const SKILL_BODY = 'Check every heading of the README for sentence case: e2e-skill-instructions.';
const SKILL_MD = `---\nname: e2e-headings\ndescription: Fix README headings to sentence case\n---\n\n${SKILL_BODY}\n`;

function chatRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));
}

describe('skills in the chat (issue #15)', { timeout: 600_000 }, () => {
  const suite = chatSuite({ files: { '.catalyst-code/skills/e2e-headings/SKILL.md': SKILL_MD, 'README.md': '# A Title In Case\n' } });
  const { check, chat } = suite;

  it('opens the chat and logs in to the scripted endpoint', check(suite.openChatAndLogIn));

  it(
    '/skills lists the project skill with its scope and description',
    check(async () => {
      await suite.settle();
      await promptAgent(chat(), '/skills');
      const notice = testId(chat(), TEST_IDS.notice).filter({ hasText: 'e2e-headings' }).last();
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      const text = (await notice.innerText()).replace(/\s+/g, ' ');
      assert.match(text, /Skills: e2e-headings \(project\) — Fix README headings to sentence case/);
      assert.equal(chatRequests(suite.env().model.requests).length, 0, '/skills is no prompt to the model');
    }),
  );

  it(
    'Apply Skill… from the palette runs the skill on a task: the model gets its instructions',
    check(async () => {
      const { page, model } = suite.env();
      await suite.settle();
      model.enqueue(textTurn('Headings fixed: e2e-skill-done.'));
      await runCommand(page, 'Catalyst: Apply Skill…');
      await pickQuickItem(page, 'e2e-headings');
      await typeInInputBox(page, 'only README.md', { prompt: /task to apply it to/ });
      await waitForUserText(chat(), '/skill:e2e-headings only README.md');
      await waitForAssistantText(chat(), 'e2e-skill-done');
      await waitForIdle(chat());
      const request = await waitUntil(() => chatRequests(model.requests).at(-1), { timeoutMs: 10_000, what: 'the chat request' });
      const messages = request.body.messages as Array<{ role: string; content: unknown }>;
      const user = String(messages.filter((m) => m.role === 'user').at(-1)?.content);
      assert.ok(user.includes(`<skill name="e2e-headings">\n${SKILL_BODY}\n</skill>`), user);
      assert.ok(user.endsWith('Task: only README.md'), user);
      assert.ok(String(messages[0].content).includes('- e2e-headings: Fix README headings to sentence case'), 'the manifest lists it');
    }),
  );
});
