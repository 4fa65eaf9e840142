// The skills section of the composer's slash completion in real Chromium: `/skill:` lists the core's skills with their
// scope, Enter picks one, and the text goes to the host as its `skill` command; an SCV core offers none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS, type ViewContext } from '../../src/shared/webviewMessages';
import { readyState } from './harness/states';
import { SIDEBAR_VIEW, type WebviewPage } from './harness/webviewPage';
import { useWebviewPage } from './harness/useWebviewPage';

const byTestId = (id: string) => `[data-testid="${id}"]`;
const VIEW: ViewContext = {
  ...SIDEBAR_VIEW,
  slashCommands: [
    ...SIDEBAR_VIEW.slashCommands,
    { name: 'skills', description: 'List the skills' },
    { name: 'skill', description: 'Apply a skill', args: '<name> [task]' },
  ],
};

function withSkills(state: SessionState): SessionState {
  state.skills = [
    { name: 'lint', description: 'Lint the house way', location: '/ws/.catalyst-code/skills/lint/SKILL.md', scope: 'project' },
    { name: 'deploy', description: 'Ship it', location: '/home/u/.catalyst-code/skills/deploy/SKILL.md', scope: 'user' },
  ];
  return state;
}

describe('skills in the slash completion (real Chromium, real shell)', { timeout: 120_000 }, () => {
  let webview: WebviewPage;
  let page: Page;
  let input: Locator;

  useWebviewPage((opened) => {
    webview = opened;
    page = opened.page;
    input = page.locator(byTestId(TEST_IDS.composer));
  });

  async function show(state: SessionState): Promise<void> {
    await webview.snapshot(state, VIEW);
    await page.locator(`${byTestId(TEST_IDS.coreStatus)}[data-status="ready"]`).waitFor();
    webview.skipPosted();
  }

  it('/skill: lists each skill with its scope; Enter picks one and sends it with the task as the skill command', async () => {
    await show(withSkills(readyState()));
    await input.focus();
    await page.keyboard.type('/skill:');
    const list = page.locator(byTestId(TEST_IDS.completionList));
    await list.waitFor();
    assert.deepEqual(await list.locator('.completion-label').allTextContents(), ['/skill:lint [task]', '/skill:deploy [task]']);
    assert.match((await list.innerText()).replace(/\s+/g, ' '), /Lint the house way \(project\).*Ship it \(user\)/);
    await page.keyboard.press('Enter');
    assert.equal(await input.inputValue(), '/skill:lint ');
    await list.waitFor({ state: 'hidden' });
    await page.keyboard.type('only src/');
    await page.keyboard.press('Enter');
    assert.deepEqual(await webview.postedUntil('slash'), [{ type: 'slash', name: 'skill', args: 'lint only src/' }]);
  });

  it('an SCV core offers no skills, nor /skills and /skill', async () => {
    await show(withSkills(readyState([], 'scv', ['server_queue', 'tool_progress'])));
    await input.focus();
    await page.keyboard.type('/');
    await page.locator(byTestId(TEST_IDS.completionList)).waitFor();
    assert.deepEqual(await page.locator(`${byTestId(TEST_IDS.completionList)} .completion-label`).allTextContents(), [
      '/compact',
      '/clear',
      '/model <id>',
    ]);
  });
});
