// Issue #15 "Done when", in code-server: `/skills` lists a project skill in the chat; "Catalyst: Apply Skill…" from the
// palette picks it, takes a task, and runs it — the scripted model's request carries the skill's instructions. And the
// marketplace, against a local index (CATALYST_CODE_SKILLS_INDEX_URL through catalystCode.core.env): the disclaimer
// first, then search, a project install (confirmed as a write into the workspace) and its removal.
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import type { RecordedRequest } from '../support/scriptedModelServer';
import { coreEnvFolderSettings, promptAgent, textTurn } from './harness/approvals';
import { testId, waitForAssistantText, waitForIdle, waitForUserText } from './harness/chatActions';
import { chatSuite } from './harness/chatSuite';
import { pickQuickItem, runCommand, typeInInputBox } from './harness/quickInput';
import { waitUntil } from './harness/wait';
import { answerModal } from './harness/dialogs';
import { waitForNotification } from './harness/notifications';
import { startSkillIndexServer, type SkillIndexServer } from '../support/skillIndexServer';

const SKILL_BODY = 'Check every heading of the README for sentence case: e2e-skill-instructions.';
const SKILL_MD = `---\nname: e2e-headings\ndescription: Fix README headings to sentence case\n---\n\n${SKILL_BODY}\n`;
const MARKET_SKILL_MD = '---\nname: e2e-tidy\ndescription: Tidy imports\n---\nSort the imports.\n';

function chatRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.method === 'POST' && r.path.includes('/chat/completions'));
}

describe('skills in the chat (issue #15)', { timeout: 600_000 }, () => {
  let index: SkillIndexServer | undefined;
  const suite = chatSuite({
    files: { '.catalyst-code/skills/e2e-headings/SKILL.md': SKILL_MD, 'README.md': '# A Title In Case\n' },
    // The index's port is known only once it listens, before VS Code (and so the core) starts.
    beforeLaunch: async ({ workspace }) => {
      index = await startSkillIndexServer({
        results: [{ id: 'acme/skills/e2e-tidy', skillId: 'e2e-tidy', name: 'e2e-tidy', installs: 42, source: 'acme/skills' }],
        snapshots: { 'acme/skills/e2e-tidy': { files: [{ path: 'SKILL.md', contents: MARKET_SKILL_MD }], hash: 'e2e-h1' } },
      });
      const [[rel, content]] = Object.entries(coreEnvFolderSettings({ CATALYST_CODE_SKILLS_INDEX_URL: index.url }));
      mkdirSync(dirname(join(workspace, rel)), { recursive: true });
      writeFileSync(join(workspace, rel), content);
    },
  });
  const { check, chat } = suite;
  after(() => index?.close());

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

  it(
    'the marketplace: the disclaimer first, then search, install into the project (confirmed), and remove',
    check(async () => {
      const { page, configDir } = suite.env();
      await suite.settle();
      await runCommand(page, 'Catalyst: Browse Skill Marketplace…');
      assert.match(await answerModal(page, 'I Understand, Continue'), /third parties and may be malicious/);
      await pickQuickItem(page, 'Search skills.sh');
      // The list opens on the core's answer to accept_skill_disclaimer, which it sends once the file is written.
      assert.equal(statSync(join(configDir, 'skill-explorer.json')).mode & 0o777, 0o600, 'the consent is kept, owner-only');
      await typeInInputBox(page, 'tidy', { prompt: /Search skills\.sh/ });
      await pickQuickItem(page, 'e2e-tidy');
      await pickQuickItem(page, 'Project');
      assert.match(
        await answerModal(page, 'Install into the Workspace'),
        /\.catalyst-code\/skills\/e2e-tidy\/ and recorded in skills-lock\.json/,
      );
      await waitForNotification(page, /skill e2e-tidy installed \(the project\)/);
      await suite.waitForDisk('.catalyst-code/skills/e2e-tidy/SKILL.md', MARKET_SKILL_MD);
      assert.equal(JSON.parse(suite.onDisk('skills-lock.json')!).skills['e2e-tidy'].computedHash, 'e2e-h1');
      assert.deepEqual(
        index!.requests.map((r) => r.path),
        ['/api/search', '/api/download/acme/skills/e2e-tidy'],
      );

      await promptAgent(chat(), '/skills');
      await testId(chat(), TEST_IDS.notice).filter({ hasText: 'e2e-tidy (project)' }).last().waitFor({ state: 'visible', timeout: 30_000 });

      // Consent given, the command opens on the list: the installed skill, to update or remove.
      await runCommand(page, 'Catalyst: Browse Skill Marketplace…');
      await pickQuickItem(page, 'e2e-tidy');
      await pickQuickItem(page, 'Remove');
      await answerModal(page, 'Remove');
      await waitForNotification(page, /skill e2e-tidy removed/);
      await suite.waitForDisk('.catalyst-code/skills/e2e-tidy/SKILL.md', undefined);
    }),
  );
});
