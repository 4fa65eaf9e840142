import { describe, test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { MAX_RULES_FILES, ProjectRules } from './projectRules';
import { defaultProjectRulesSettings, type ProjectRulesSettings } from '../config/rulesSettings';
import { MAX_WALK_DEPTH, MAX_WALK_DIRS } from './rulesWalk';
import type { RuleSource } from '../config/ruleSources';

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

/** A fresh test workspace holding these files (path → content). */
function workspaceWith(files: Record<string, string>): void {
  ws = makeTestWorkspace();
  for (const [rel, content] of Object.entries(files)) ws.write(rel, content);
}

/** Project rules over the test workspace, read once. */
async function rules(overrides: Partial<ProjectRulesSettings> = {}): Promise<ProjectRules> {
  const r = unread(overrides);
  await r.refresh();
  return r;
}

function unread(overrides: Partial<ProjectRulesSettings> = {}): ProjectRules {
  return new ProjectRules(ws.root, { ...defaultProjectRulesSettings(), ...overrides });
}

const paths = (r: ProjectRules) => r.current().files.map((f) => f.path);
const skipped = (r: ProjectRules) => r.current().skipped.map((s) => [s.path, s.reason]);

describe('ProjectRules discovery', () => {
  test('every source, in precedence order: AGENTS.md root first then nested by depth, then the other tools', async () => {
    workspaceWith({
      '.cursorrules': 'cursor',
      '.clinerules/b.md': 'cline b',
      '.clinerules/a.md': 'cline a',
      '.clinerules/notes.txt': 'not markdown',
      '.github/copilot-instructions.md': 'copilot',
      'packages/api/src/AGENTS.md': 'deep',
      'packages/api/AGENTS.md': 'api',
      'CLAUDE.md': 'claude',
      'AGENTS.md': 'root',
    });
    const r = await rules();
    assert.deepEqual(paths(r), [
      'AGENTS.md',
      'packages/api/AGENTS.md',
      'packages/api/src/AGENTS.md',
      'CLAUDE.md',
      '.github/copilot-instructions.md',
      '.clinerules/a.md',
      '.clinerules/b.md',
      '.cursorrules',
    ]);
    assert.deepEqual(
      r.current().files.map((f) => [f.source, f.scope]),
      [
        ['agents_md', '.'],
        ['agents_md', 'packages/api'],
        ['agents_md', 'packages/api/src'],
        ['claude_md', '.'],
        ['copilot_instructions', '.'],
        ['clinerules', '.'],
        ['clinerules', '.'],
        ['cursorrules', '.'],
      ],
    );
    const prompt = r.current().prompt;
    assert.match(prompt, /^# Project rules/);
    assert.ok(prompt.includes('## packages/api/AGENTS.md (applies to packages/api/)\n\napi'));
    assert.ok(prompt.includes('## CLAUDE.md (Claude Code; applies to the whole workspace)\n\nclaude'));
    assert.ok(prompt.indexOf('root') < prompt.indexOf('deep') && prompt.indexOf('deep') < prompt.indexOf('cursor'));
  });

  test('a single .clinerules file is read as one', async () => {
    workspaceWith({ '.clinerules': 'one file' });
    assert.deepEqual(paths(await rules()), ['.clinerules']);
  });

  test('node_modules, dot-folders and what .gitignore ignores are not walked; an ignored rules file is listed as skipped', async () => {
    workspaceWith({
      'node_modules/pkg/AGENTS.md': 'x',
      '.venv/AGENTS.md': 'x',
      'build/AGENTS.md': 'x',
      'app/CLAUDE.md': 'personal',
      'app/AGENTS.md': 'kept',
      '.gitignore': 'build/\n',
      'app/.gitignore': 'CLAUDE.md\n',
    });
    const r = await rules();
    assert.deepEqual(paths(r), ['app/AGENTS.md']);
    assert.deepEqual(skipped(r), [['app/CLAUDE.md', 'gitignored']]);
  });

  test('the walk is bounded in depth and says so', async () => {
    ws = makeTestWorkspace();
    const deep = Array.from({ length: MAX_WALK_DEPTH + 1 }, (_, i) => `d${i}`).join('/');
    ws.write(`${deep}/AGENTS.md`, 'too deep');
    const r = await rules();
    assert.deepEqual(paths(r), []);
    assert.equal(r.current().walkLimited, true);
  });

  test('the walk reads at most MAX_WALK_DIRS folders, breadth-first in name order, and says so', async () => {
    ws = makeTestWorkspace();
    const folder = (i: number) => `d${String(i).padStart(4, '0')}`;
    // The root is the first folder read, so d0000 … d(MAX − 2) are read and the last two are not.
    for (let i = 0; i <= MAX_WALK_DIRS; i++) fs.mkdirSync(path.join(ws.root, folder(i)));
    ws.write(`${folder(MAX_WALK_DIRS - 2)}/AGENTS.md`, 'last one read');
    ws.write(`${folder(MAX_WALK_DIRS - 1)}/AGENTS.md`, 'past the bound');
    const r = await rules();
    assert.deepEqual(paths(r), [`${folder(MAX_WALK_DIRS - 2)}/AGENTS.md`]);
    assert.equal(r.current().walkLimited, true);
  });

  test('restricted paths, symlinks out of the workspace and binary files are skipped with their reason', async () => {
    ws = makeTestWorkspace();
    const outside = fs.mkdtempSync(path.join(path.dirname(ws.root), 'outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'AGENTS.md'), 'secret rules');
      fs.symlinkSync(path.join(outside, 'AGENTS.md'), path.join(ws.root, 'AGENTS.md'));
      ws.write('.env', 'TOKEN=1');
      fs.mkdirSync(path.join(ws.root, 'lib'));
      fs.symlinkSync(path.join(ws.root, '.env'), path.join(ws.root, 'lib', 'AGENTS.md'));
      ws.write('bin/AGENTS.md', Buffer.from([0x41, 0x00, 0x42]));
      const r = await rules();
      assert.deepEqual(paths(r), []);
      assert.deepEqual(skipped(r), [
        ['AGENTS.md', 'outside_workspace'],
        ['bin/AGENTS.md', 'binary'],
        ['lib/AGENTS.md', 'restricted'],
      ]);
      assert.ok(!r.current().prompt.includes('secret rules') && !r.current().prompt.includes('TOKEN'));
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('CLAUDE.md linked to (or copied from) AGENTS.md is read once', async () => {
    workspaceWith({ 'AGENTS.md': 'shared rules' });
    fs.symlinkSync('AGENTS.md', path.join(ws.root, 'CLAUDE.md'));
    ws.write('.cursorrules', 'shared rules');
    const r = await rules();
    assert.deepEqual(paths(r), ['AGENTS.md']);
    assert.deepEqual(skipped(r), [
      ['CLAUDE.md', 'duplicate'],
      ['.cursorrules', 'duplicate'],
    ]);
  });

  test('at most MAX_RULES_FILES files', async () => {
    ws = makeTestWorkspace();
    for (let i = 0; i <= MAX_RULES_FILES; i++) ws.write(`p${String(i).padStart(3, '0')}/AGENTS.md`, `rules ${i}`);
    const r = await rules();
    assert.equal(r.current().files.length, MAX_RULES_FILES);
    assert.deepEqual(skipped(r), [[`p${String(MAX_RULES_FILES).padStart(3, '0')}/AGENTS.md`, 'too_many_files']]);
  });
});

describe('ProjectRules caps', () => {
  test('a file over the per-file cap is cut with a visible marker, at a UTF-8 boundary', async () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'é'.repeat(100));
    const r = await rules({ maxFileBytes: 51 });
    const [file] = r.current().files;
    assert.equal(file.truncated, true);
    assert.equal(file.bytes, 200);
    const prompt = r.current().prompt;
    assert.ok(prompt.includes(`${'é'.repeat(25)}\n[… truncated by Catalyst Code: AGENTS.md is 200 bytes, only the first 50 are shown`));
    assert.ok(!prompt.includes('\uFFFD'));
  });

  test('the total cap cuts the file that crosses it and leaves out the rest, each with a marker', async () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'a'.repeat(60));
    ws.write('CLAUDE.md', 'b'.repeat(60));
    ws.write('.cursorrules', 'c'.repeat(10));
    const r = await rules({ maxTotalBytes: 100 });
    assert.deepEqual(
      r.current().files.map((f) => [f.path, f.truncated]),
      [
        ['AGENTS.md', false],
        ['CLAUDE.md', true],
        ['.cursorrules', true],
      ],
    );
    const prompt = r.current().prompt;
    assert.ok(
      prompt.includes(
        `${'b'.repeat(40)}\n[… truncated by Catalyst Code: CLAUDE.md is 60 bytes, only the first 40 are shown (project_rules.max_total_bytes = 100)`,
      ),
    );
    assert.ok(prompt.includes('[left out by Catalyst Code: the project rules reached their total cap'));
    assert.ok(!prompt.includes('cccc'));
  });
});

describe('ProjectRules: Copilot and Cursor files with a frontmatter', () => {
  test('each is read in its place with what its frontmatter says in the heading; a manual-only one is skipped', async () => {
    workspaceWith({
      '.github/copilot-instructions.md': 'copilot',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts,**/*.tsx"\n---\nTS-RULES body',
      '.github/instructions/all.instructions.md': "---\napplyTo: '**'\n---\nALL-RULES body",
      '.github/instructions/manual.instructions.md': 'MANUAL-COPILOT without applyTo',
      '.github/instructions/notes.md': 'not an instructions file',
      '.clinerules': 'cline',
      '.cursor/rules/always.mdc': '---\ndescription: Everywhere\nalwaysApply: true\n---\nALWAYS-RULES body',
      '.cursor/rules/react.mdc': '---\nglobs: ["*.tsx", "*.jsx"]\nalwaysApply: false\n---\nREACT-RULES body',
      '.cursor/rules/db.mdc': '---\ndescription: Database migrations\nglobs:\nalwaysApply: false\n---\nDB-RULES body',
      '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nMANUAL-CURSOR',
      '.cursorrules': 'legacy cursor',
    });
    const r = await rules();
    assert.deepEqual(paths(r), [
      '.github/copilot-instructions.md',
      '.github/instructions/all.instructions.md',
      '.github/instructions/ts.instructions.md',
      '.clinerules',
      '.cursor/rules/always.mdc',
      '.cursor/rules/db.mdc',
      '.cursor/rules/react.mdc',
      '.cursorrules',
    ]);
    assert.deepEqual(skipped(r), [
      ['.github/instructions/manual.instructions.md', 'manual_only'],
      ['.cursor/rules/manual.mdc', 'manual_only'],
    ]);
    const prompt = r.current().prompt;
    assert.ok(
      prompt.includes(
        '## .github/instructions/ts.instructions.md (GitHub Copilot; applies to files matching **/*.ts, **/*.tsx)\n\nTS-RULES body',
      ),
    );
    assert.ok(prompt.includes('## .github/instructions/all.instructions.md (GitHub Copilot; applies to the whole workspace)\n\nALL-RULES'));
    assert.ok(prompt.includes('## .cursor/rules/always.mdc (Cursor; applies to the whole workspace)\n\nALWAYS-RULES body'));
    assert.ok(prompt.includes('## .cursor/rules/react.mdc (Cursor; applies to files matching *.tsx, *.jsx)\n\nREACT-RULES body'));
    assert.ok(prompt.includes('## .cursor/rules/db.mdc (Cursor; applies to tasks where it is relevant: Database migrations)\n\nDB-RULES'));
    assert.ok(!prompt.includes('applyTo') && !prompt.includes('alwaysApply'), 'the frontmatter itself stays out');
    assert.ok(!prompt.includes('MANUAL-') && !prompt.includes('not an instructions file'));
  });

  test('the caps count the body, and each source has its own switch', async () => {
    workspaceWith({
      '.cursor/rules/big.mdc': `---\nalwaysApply: true\n---\n${'x'.repeat(100)}`,
      '.github/instructions/a.instructions.md': '---\napplyTo: "*"\n---\ncopilot',
    });
    const capped = await rules({ maxFileBytes: 50 });
    assert.deepEqual(
      capped.current().files.map((f) => [f.path, f.truncated]),
      [
        ['.github/instructions/a.instructions.md', false],
        ['.cursor/rules/big.mdc', true],
      ],
    );
    assert.ok(capped.current().prompt.includes('.cursor/rules/big.mdc is 100 bytes, only the first 50 are shown'));
    const off = await rules({ enabled: new Set<RuleSource>(['copilot_path_instructions']) });
    assert.deepEqual(paths(off), ['.github/instructions/a.instructions.md']);
  });
});

describe('ProjectRules settings and refresh', () => {
  test('a source turned off is neither read nor walked for', async () => {
    workspaceWith({
      'AGENTS.md': 'agents',
      'sub/CLAUDE.md': 'claude',
      '.cursorrules': 'cursor',
    });
    const r = await rules({ enabled: new Set<RuleSource>(['agents_md', 'cursorrules']) });
    assert.deepEqual(paths(r), ['AGENTS.md', '.cursorrules']);
    assert.deepEqual(r.current().disabled, [
      'claude_md',
      'copilot_instructions',
      'copilot_path_instructions',
      'clinerules',
      'cursor_project_rules',
    ]);
    assert.ok(!r.current().prompt.includes('claude'));
  });

  test('a refresh sees a new nested file, an edit and a removal; an unchanged tree reports no change', async () => {
    workspaceWith({ 'AGENTS.md': 'one' });
    const r = unread();
    assert.equal((await r.refresh()).changed, true);
    assert.equal((await r.refresh()).changed, false);
    ws.write('sub/AGENTS.md', 'nested');
    assert.equal((await r.refresh()).changed, true);
    assert.deepEqual(paths(r), ['AGENTS.md', 'sub/AGENTS.md']);
    ws.write('AGENTS.md', 'one, now longer');
    assert.equal((await r.refresh()).changed, true);
    assert.ok(r.current().prompt.includes('one, now longer'));
    fs.rmSync(path.join(ws.root, 'sub'), { recursive: true });
    assert.equal((await r.refresh()).changed, true);
    assert.deepEqual(paths(r), ['AGENTS.md']);
  });

  test('before the first read there are no files; a refresh called while one runs reads after it', async () => {
    workspaceWith({ 'AGENTS.md': 'one' });
    const r = unread();
    assert.deepEqual(paths(r), []);
    const [first, second] = await Promise.all([r.refresh(), r.refresh()]);
    assert.equal(first.changed, true);
    assert.equal(second.changed, false, 'the second read compares with the first one, so it started after it');
    assert.deepEqual(paths(r), ['AGENTS.md']);
  });

  test('no rules files: no prompt section', async () => {
    ws = makeTestWorkspace();
    assert.equal((await rules()).current().prompt, '');
    assert.equal((await rules()).current().tokens, 0);
  });
});
