// Issue #5 "Done when", end to end in code-server driven by Chromium: the agent's checkpoints in VS Code's Source
// Control view. Two launches. The first on a workspace that is the user's git repository (a commit, a second branch, a
// stash, a staged change, an untracked file): the checks run in order, each a user flow against the scripted model, and
// the last one proves the user's git state (HEAD, branches, stash, index) is as they left it. The second on a plain
// folder (checkpoints in the core's shadow repository): a created nested file, Restore This File on it, the palette's
// Restore Checkpoint…, and nothing written into the folder.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { editArgs, promptAgent, textTurn, toolCallTurn } from './harness/approvals';
import { messageTexts, openChatView, testId, waitForAssistantText, waitForIdle } from './harness/chatActions';
import { chatSuite, type ChatSuite } from './harness/chatSuite';
import { answerModal } from './harness/dialogs';
import {
  activeDiffEditor,
  clickTitleAction,
  modifiedSide,
  originalSide,
  waitForProposal,
  waitForProposalClosed,
} from './harness/diffEditor';
import { activateTab, activeCodeEditor, openWorkspaceFile, waitForRenderedText } from './harness/editors';
import { git, gitUserState, otherRefs, type GitUserState } from './harness/gitState';
import { pickQuickItem, runCommand } from './harness/quickInput';
import {
  acceptInInputBox,
  checkpointCount,
  clickInlineAction,
  describeGroups,
  findGroup,
  scmGroupRow,
  scmInputPlaceholder,
  scmInputText,
  scmResourceRow,
  showCheckpointsView,
  waitForCheckpointCount,
  waitForScmGroups,
} from './harness/scm';
import { waitUntil } from './harness/wait';

const ACCEPT = 'Accept Proposed Change';

const APP_TEXT = 'alpha\nbeta\ngamma\n';
const APP_EDITED = 'alpha\nbeta, edited by the agent\ngamma\n';
const APP_EDITED_3 = 'alpha, turn three\nbeta\ngamma\n';
const NOTES_TEXT = 'notes one\nnotes two\n';
const NOTES_EDITED_2 = 'notes one\nnotes two, turn two\n';
const NOTES_EDITED_3 = 'notes one, turn three\nnotes two\n';
const CREATED_TEXT = 'made by the agent\n';
const STAGED_V1 = 'staged v1\n';
const STAGED_V2 = 'staged v2, in the index\n';
const SCRATCH_TEXT = 'untracked scratch\n';

const PROMPT_1 = 'Turn one: edit app.txt and create created.txt';
const PROMPT_2 = 'Turn two: edit notes.txt';
const PROMPT_3 = 'Turn three: edit app.txt and notes.txt';
const MANUAL_LABEL = 'Before my refactor';

/** The group of the automatic checkpoint of the turn whose prompt starts with `promptStart`. */
const autoGroup = (promptStart: string) => new RegExp(`^Before agent edits · [^·]+ · auto · “${promptStart}`);
const TURN_1 = autoGroup('Turn one');
const TURN_3 = autoGroup('Turn three');
const MANUAL = new RegExp(`^${MANUAL_LABEL} · [^·]+ · manual`);
const names = (files: ReadonlyArray<{ name: string }>) => files.map((f) => f.name).sort();

/** What the checks of a launch do besides the suite's basics: bring the chat back, recover, accept a proposal. */
function userFlows(suite: ChatSuite) {
  const { chat, waitForDisk } = suite;

  /** Source Control replaces the chat in the side bar; this brings the chat back. */
  async function showChat(): Promise<void> {
    await openChatView(suite.env().page);
    await testId(chat(), TEST_IDS.composer).first().waitFor({ state: 'visible', timeout: 30_000 });
  }

  return {
    showChat,
    userMessages: () => messageTexts(chat(), TEST_IDS.userMessage),

    /** Puts the session back to idle if an earlier check failed half-way, and the chat in front. */
    async settle(): Promise<void> {
      await showChat();
      await suite.settle();
    },

    /** Each file change of a turn is proposed in the diff editor; the user accepts it there. */
    async acceptProposal(rel: string, expected: string): Promise<void> {
      const { page } = suite.env();
      await waitForProposal(page, rel);
      await clickTitleAction(page, ACCEPT);
      await waitForDisk(rel, expected);
      await waitForProposalClosed(page, rel);
    },
  };
}

describe('checkpoints in Source Control, in a git repository (issue #5)', { timeout: 600_000 }, () => {
  let userGit: GitUserState | undefined;
  const suite = chatSuite({
    files: { 'app.txt': APP_TEXT, 'notes.txt': NOTES_TEXT, 'staged.txt': STAGED_V1 },
    beforeLaunch: ({ workspace }) => {
      // The user's repository: a commit, a second branch, a stash of their own, a staged change, an untracked file.
      git(workspace, 'init', '-q');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-q', '-m', 'initial');
      git(workspace, 'branch', 'feature');
      writeFileSync(join(workspace, 'notes.txt'), 'the user stashed this\n');
      git(workspace, 'stash', 'push', '-q', '-m', 'the user’s own stash');
      writeFileSync(join(workspace, 'staged.txt'), STAGED_V2);
      git(workspace, 'add', 'staged.txt');
      writeFileSync(join(workspace, 'scratch.txt'), SCRATCH_TEXT);
      userGit = gitUserState(workspace);
    },
  });
  const { check, chat, onDisk, waitForDisk, openChatAndLogIn } = suite;
  const { showChat, userMessages, settle, acceptProposal } = userFlows(suite);

  it(
    'opens the chat and logs in; the status bar counts no checkpoints and Source Control offers the input box',
    check(async (t) => {
      const { page } = suite.env();
      await openChatAndLogIn();
      await waitForCheckpointCount(page, 0, 30_000);
      await showCheckpointsView(page);
      const placeholder = await waitUntil(async () => (await scmInputPlaceholder(page).catch(() => '')) || undefined, {
        timeoutMs: 10_000,
        what: 'the input box placeholder',
      });
      t.diagnostic(`placeholder: ${placeholder}`);
      assert.match(placeholder, /^Checkpoint label \(Ctrl\+Enter to create\)/);
      const groups = await waitForScmGroups(page, () => true, 'the view');
      assert.deepEqual(groups, [], `groups before any checkpoint: ${describeGroups(groups)}`);
    }),
  );

  it(
    '1. after an accepted agent edit, Source Control shows the checkpoint with the changed files; a file opens checkpoint ↔ now',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_cp_edit_1', 'edit', editArgs('app.txt', ['beta', 'beta, edited by the agent'])),
        toolCallTurn('call_cp_create_1', 'write_file', { path: 'created.txt', content: CREATED_TEXT }),
        textTurn('Edited and created: cp-turn-1-done.'),
      );
      await promptAgent(chat(), PROMPT_1);
      await acceptProposal('app.txt', APP_EDITED);
      await acceptProposal('created.txt', CREATED_TEXT);
      await waitForAssistantText(chat(), 'cp-turn-1-done');
      await waitForIdle(chat());
      await testId(chat(), TEST_IDS.checkpointRow).first().waitFor({ state: 'visible', timeout: 15_000 });

      await waitForCheckpointCount(page, 1);
      await showCheckpointsView(page);
      const groups = await waitForScmGroups(
        page,
        (g) => g.length === 1 && TURN_1.test(g[0].label) && g[0].files.length === 2,
        'the turn-one checkpoint with its two files',
      );
      t.diagnostic(`Source Control: ${describeGroups(groups)}`);
      assert.deepEqual(names(groups[0].files), ['app.txt', 'created.txt']);

      await (await scmResourceRow(page, TURN_1, 'app.txt')).click();
      const title = 'app.txt (“Before agent edits” ↔ now)';
      await page.locator('.tabs-container .tab.active').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 20_000 });
      const diff = activeDiffEditor(page);
      await waitForRenderedText(originalSide(diff), (s) => s === APP_TEXT, 'the checkpoint’s app.txt on the left');
      await waitForRenderedText(modifiedSide(diff), (s) => s === APP_EDITED, 'the working app.txt on the right');
    }),
  );

  it(
    '2. Restore Checkpoint (inline on the group) brings the file back in the open editor and on disk, and removes the file the agent created',
    check(async (t) => {
      await settle();
      const { page } = suite.env();
      await runCommand(page, 'View: Close All Editors');
      const editor = await openWorkspaceFile(page, 'app.txt');
      await waitForRenderedText(editor, (s) => s === APP_EDITED, 'app.txt open with the agent’s edit');

      await showCheckpointsView(page);
      await waitForScmGroups(page, (g) => findGroup(g, TURN_1)?.files.length === 2, 'the turn-one checkpoint');
      await clickInlineAction(scmGroupRow(page, TURN_1), 'Restore Checkpoint');
      const said = await answerModal(page, 'Restore');
      t.diagnostic(`modal: ${said.replace(/\s*\n+\s*/g, ' / ')}`);
      assert.match(said, /app\.txt/, 'the modal does not list the file it restores');
      assert.match(said, /created\.txt/, 'the modal does not list the file it removes');

      await waitForDisk('app.txt', APP_TEXT);
      await waitForDisk('created.txt', undefined);
      await activateTab(page, 'app.txt');
      await waitForRenderedText(activeCodeEditor(page), (s) => s === APP_TEXT, 'the open editor to show the restored app.txt');
      assert.equal(await page.locator('.tabs-container .tab.dirty', { hasText: 'app.txt' }).count(), 0, 'the restored editor is dirty');
      // The rest of the workspace is as it was: the untracked file and the staged file's working copy.
      assert.equal(onDisk('scratch.txt'), SCRATCH_TEXT);
      assert.equal(onDisk('staged.txt'), STAGED_V2);
      const groups = await waitForScmGroups(
        page,
        (g) => findGroup(g, TURN_1)?.files.length === 0,
        'the restored checkpoint to list no changes',
      );
      assert.match(findGroup(groups, TURN_1)!.label, /no changes since/);
      await showChat();
      await waitUntil(async () => (await testId(chat(), TEST_IDS.checkpointRow).first().getAttribute('data-state')) === 'restored', {
        timeoutMs: 10_000,
        what: 'the chat’s checkpoint row to show it was restored',
      });
    }),
  );

  it(
    '3. Create Checkpoint from the Source Control input box (label, Ctrl+Enter) adds a group with that label on top',
    check(async () => {
      await settle();
      const { page } = suite.env();
      await runCommand(page, 'View: Close All Editors');
      const before = await checkpointCount(page);
      await showCheckpointsView(page);
      await acceptInInputBox(page, MANUAL_LABEL);
      const groups = await waitForScmGroups(
        page,
        (g) => g.length === 2 && MANUAL.test(g[0].label) && TURN_1.test(g[1].label),
        'the new checkpoint above the older one',
      );
      assert.deepEqual(groups[0].files, [], 'a checkpoint taken just now differs from the working tree');
      await waitUntil(async () => (await scmInputText(page)) === '', { timeoutMs: 10_000, what: 'the input box to clear' });
      await waitForCheckpointCount(page, (before ?? 0) + 1);
    }),
  );

  it(
    '4. Undo Last Turn (palette) removes the last prompt from the chat and puts its files back',
    check(async () => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_cp_edit_2', 'edit', editArgs('notes.txt', ['notes two', 'notes two, turn two'])),
        textTurn('Edited notes: cp-turn-2-done.'),
      );
      await promptAgent(chat(), PROMPT_2);
      await acceptProposal('notes.txt', NOTES_EDITED_2);
      await waitForAssistantText(chat(), 'cp-turn-2-done');
      await waitForIdle(chat());
      assert.deepEqual(await userMessages(), [PROMPT_1, PROMPT_2]);

      await runCommand(page, 'Catalyst: Undo Last Turn');
      await waitForDisk('notes.txt', NOTES_TEXT);
      let shown: string[] = [];
      await waitUntil(async () => !(shown = await userMessages()).includes(PROMPT_2), {
        timeoutMs: 20_000,
        what: 'the undone prompt to leave the chat',
      }).catch(() => {
        throw new Error(`the undone prompt is still in the chat: ${JSON.stringify(shown)}`);
      });
      assert.deepEqual(shown, [PROMPT_1], 'the earlier turn should stay');
      assert.equal(
        await testId(chat(), TEST_IDS.assistantMessage).filter({ hasText: 'cp-turn-2-done' }).count(),
        0,
        'the undone answer is still in the chat',
      );
      assert.equal(onDisk('app.txt'), APP_TEXT);
    }),
  );

  it(
    '4b. after the undo, the turn that stays keeps its checkpoint: its row in the chat, its prompt in Source Control',
    check(async (t) => {
      await settle();
      const { page } = suite.env();
      assert.deepEqual(await userMessages(), [PROMPT_1], 'the transcript is not as check 4 left it');
      // Counted before the Source Control view takes the sidebar's place (the chat is then hidden).
      const rowCount = await testId(chat(), TEST_IDS.checkpointRow).count();
      t.diagnostic(`checkpoint rows in the chat: ${rowCount}`);
      await showCheckpointsView(page);
      const groups = await waitForScmGroups(page, (g) => g.length >= 3, 'the checkpoints after the undo');
      t.diagnostic(`Source Control: ${describeGroups(groups)}`);
      // The oldest group is turn one's automatic checkpoint; that turn is still in the chat, so its prompt is known.
      assert.match(groups[groups.length - 1].label, TURN_1, 'turn one’s checkpoint lost its prompt in Source Control after Undo Last Turn');
      assert.ok(rowCount >= 1, 'the chat lost turn one’s checkpoint row (Compare, Restore) after Undo Last Turn');
    }),
  );

  it(
    '5. Restore This File restores that file only; Delete Checkpoint removes its group and leaves the files alone',
    check(async (t) => {
      await settle();
      const { page, model } = suite.env();
      model.enqueue(
        toolCallTurn('call_cp_edit_3a', 'edit', editArgs('app.txt', ['alpha', 'alpha, turn three'])),
        toolCallTurn('call_cp_edit_3b', 'edit', editArgs('notes.txt', ['notes one', 'notes one, turn three'])),
        textTurn('Edited both: cp-turn-3-done.'),
      );
      await promptAgent(chat(), PROMPT_3);
      await acceptProposal('app.txt', APP_EDITED_3);
      await acceptProposal('notes.txt', NOTES_EDITED_3);
      await waitForAssistantText(chat(), 'cp-turn-3-done');
      await waitForIdle(chat());
      await runCommand(page, 'View: Close All Editors');

      await showCheckpointsView(page);
      let groups = await waitForScmGroups(
        page,
        (g) => TURN_3.test(g[0]?.label ?? '') && g[0].files.length === 2,
        'the turn-three checkpoint on top with its two files',
      );
      t.diagnostic(`Source Control: ${describeGroups(groups)}`);
      assert.deepEqual(names(groups[0].files), ['app.txt', 'notes.txt']);

      await clickInlineAction(await scmResourceRow(page, TURN_3, 'app.txt'), 'Restore This File');
      const said = await answerModal(page, 'Restore File');
      assert.match(said, /app\.txt/, `the modal does not name the file: ${said}`);
      await waitForDisk('app.txt', APP_TEXT);
      groups = await waitForScmGroups(
        page,
        (g) => {
          const files = findGroup(g, TURN_3)?.files;
          return files?.length === 1 && files[0].name === 'notes.txt';
        },
        'the turn-three checkpoint to list notes.txt only',
      );
      assert.equal(onDisk('notes.txt'), NOTES_EDITED_3, 'Restore This File changed another file');

      const count = await checkpointCount(page);
      assert.equal(count, groups.length, `the status bar counts ${count}, Source Control shows ${groups.length} groups`);
      const autoGroups = (g: typeof groups) => g.filter((x) => / · auto\b/.test(x.label)).length;
      const autoBefore = autoGroups(groups);
      await clickInlineAction(scmGroupRow(page, TURN_3), 'Delete Checkpoint');
      const asked = await answerModal(page, 'Delete');
      assert.match(asked, /Delete checkpoint “Before agent edits”/, `the modal: ${asked}`);
      groups = await waitForScmGroups(page, (g) => g.length > 0 && !findGroup(g, TURN_3), 'the deleted checkpoint’s group to go');
      t.diagnostic(`Source Control after the delete: ${describeGroups(groups)}`);
      assert.equal(groups.length, count! - 1, 'deleting one checkpoint removed more than its group');
      assert.ok(findGroup(groups, MANUAL), 'the manual checkpoint went with the deleted one');
      assert.equal(autoGroups(groups), autoBefore - 1);
      await waitForCheckpointCount(page, count! - 1);
      assert.equal(onDisk('notes.txt'), NOTES_EDITED_3, 'deleting the checkpoint changed a file');
      assert.equal(onDisk('app.txt'), APP_TEXT);
      await showChat();
      await waitUntil(async () => (await testId(chat(), TEST_IDS.checkpointRow).last().getAttribute('data-state')) === 'deleted', {
        timeoutMs: 10_000,
        what: 'the chat’s row of the deleted checkpoint to say so',
      });
    }),
  );

  it(
    '6. the user’s git repository is as they left it: HEAD, branches, stash and index',
    check(async (t) => {
      const now = gitUserState(suite.env().workspace);
      t.diagnostic(`other refs: ${otherRefs(suite.env().workspace).join(', ') || '(none)'}`);
      assert.ok(userGit);
      assert.deepEqual(now.staged, ['M  staged.txt'], 'the setup should leave one staged change');
      assert.equal(now.stashes.length, 1, 'the setup should leave one stash');
      assert.deepEqual(now, userGit);
    }),
  );
});

const README_TEXT = '# docs\nread me\n';
const NEW_DOC_TEXT = 'a page the agent wrote\n';
const SHADOW_PROMPT = 'Shadow turn: edit app.txt and add docs/new.md';
const SHADOW_TURN = autoGroup('Shadow turn');

/** Workspace-relative paths of every file under `dir` (not directories), sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

/** Directories named `name` anywhere under `dir`. */
function dirsNamed(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (!e.isDirectory()) return [];
    const full = join(dir, e.name);
    return e.name === name ? [full] : dirsNamed(full, name);
  });
}

describe('checkpoints in Source Control, in a folder that is not a git repository (issue #5)', { timeout: 300_000 }, () => {
  const suite = chatSuite({ files: { 'app.txt': APP_TEXT, 'docs/readme.md': README_TEXT } });
  const { check, chat, onDisk, waitForDisk, openChatAndLogIn } = suite;
  const { settle, acceptProposal } = userFlows(suite);

  it(
    'an agent turn’s checkpoint lists the nested file it created; Restore This File on it removes that file only',
    check(async (t) => {
      const { page, model } = suite.env();
      await openChatAndLogIn();
      model.enqueue(
        toolCallTurn('call_sh_edit', 'edit', editArgs('app.txt', ['beta', 'beta, edited by the agent'])),
        toolCallTurn('call_sh_create', 'write_file', { path: 'docs/new.md', content: NEW_DOC_TEXT }),
        textTurn('Edited and added: cp-shadow-done.'),
      );
      await promptAgent(chat(), SHADOW_PROMPT);
      await acceptProposal('app.txt', APP_EDITED);
      await acceptProposal('docs/new.md', NEW_DOC_TEXT);
      await waitForAssistantText(chat(), 'cp-shadow-done');
      await waitForIdle(chat());

      await waitForCheckpointCount(page, 1);
      await showCheckpointsView(page);
      let groups = await waitForScmGroups(
        page,
        (g) => g.length === 1 && SHADOW_TURN.test(g[0].label) && g[0].files.length === 2,
        'the turn’s checkpoint with its two files',
      );
      t.diagnostic(`Source Control: ${describeGroups(groups)}`);
      assert.deepEqual(names(groups[0].files), ['app.txt', 'new.md']);
      assert.match(groups[0].files.find((f) => f.name === 'new.md')!.description, /docs/, 'the nested file does not show its folder');

      await clickInlineAction(await scmResourceRow(page, SHADOW_TURN, 'new.md'), 'Restore This File');
      // The file did not exist at the checkpoint: restoring it removes it, and the modal says so.
      const said = await answerModal(page, 'Remove File');
      assert.match(said, /docs\/new\.md/, `the modal: ${said}`);
      await waitForDisk('docs/new.md', undefined);
      assert.equal(onDisk('app.txt'), APP_EDITED, 'restoring one file changed another');
      groups = await waitForScmGroups(page, (g) => names(g[0]?.files ?? []).join() === 'app.txt', 'the checkpoint to list app.txt only');
    }),
  );

  it(
    'Restore Checkpoint… from the palette restores the rest; the folder gets no repository and no stray files',
    check(async (t) => {
      await settle();
      const { page, workspace, configDir } = suite.env();
      await runCommand(page, 'Catalyst: Restore Checkpoint…');
      await pickQuickItem(page, 'Before agent edits');
      const said = await answerModal(page, 'Restore');
      assert.match(said, /app\.txt/, `the modal: ${said}`);
      await waitForDisk('app.txt', APP_TEXT);
      assert.equal(existsSync(join(workspace, '.git')), false, 'a .git appeared in the workspace');
      assert.deepEqual(filesUnder(workspace), ['app.txt', 'docs/readme.md']);
      t.diagnostic(
        `shadow repositories under the core's config dir: ${
          dirsNamed(configDir, 'shadow.git')
            .map((d) => d.slice(configDir.length))
            .join(', ') || '(none)'
        }`,
      );
    }),
  );
});
