import { describe, test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { MAX_RULES_FILES, ProjectRules } from './projectRules';
import { defaultProjectRulesSettings, type ProjectRulesSettings } from './rulesSettings';
import { MAX_WALK_DEPTH } from './rulesWalk';
import type { RuleSource } from './ruleSources';

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

function rules(overrides: Partial<ProjectRulesSettings> = {}): ProjectRules {
  return new ProjectRules(ws.root, { ...defaultProjectRulesSettings(), ...overrides });
}

const paths = (r: ProjectRules) => r.current().files.map((f) => f.path);
const skipped = (r: ProjectRules) => r.current().skipped.map((s) => [s.path, s.reason]);

describe('ProjectRules discovery', () => {
  test('every source, in precedence order: AGENTS.md root first then nested by depth, then the other tools', () => {
    ws = makeTestWorkspace();
    ws.write('.cursorrules', 'cursor');
    ws.write('.clinerules/b.md', 'cline b');
    ws.write('.clinerules/a.md', 'cline a');
    ws.write('.clinerules/notes.txt', 'not markdown');
    ws.write('.github/copilot-instructions.md', 'copilot');
    ws.write('packages/api/src/AGENTS.md', 'deep');
    ws.write('packages/api/AGENTS.md', 'api');
    ws.write('CLAUDE.md', 'claude');
    ws.write('AGENTS.md', 'root');
    const r = rules();
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

  test('a single .clinerules file is read as one', () => {
    ws = makeTestWorkspace();
    ws.write('.clinerules', 'one file');
    assert.deepEqual(paths(rules()), ['.clinerules']);
  });

  test('node_modules, dot-folders and what .gitignore ignores are not walked; an ignored rules file is listed as skipped', () => {
    ws = makeTestWorkspace();
    ws.write('node_modules/pkg/AGENTS.md', 'x');
    ws.write('.venv/AGENTS.md', 'x');
    ws.write('build/AGENTS.md', 'x');
    ws.write('app/CLAUDE.md', 'personal');
    ws.write('app/AGENTS.md', 'kept');
    ws.write('.gitignore', 'build/\n');
    ws.write('app/.gitignore', 'CLAUDE.md\n');
    const r = rules();
    assert.deepEqual(paths(r), ['app/AGENTS.md']);
    assert.deepEqual(skipped(r), [['app/CLAUDE.md', 'gitignored']]);
  });

  test('the walk is bounded in depth and says so', () => {
    ws = makeTestWorkspace();
    const deep = Array.from({ length: MAX_WALK_DEPTH + 1 }, (_, i) => `d${i}`).join('/');
    ws.write(`${deep}/AGENTS.md`, 'too deep');
    const r = rules();
    assert.deepEqual(paths(r), []);
    assert.equal(r.current().walkLimited, true);
  });

  test('restricted paths, symlinks out of the workspace and binary files are skipped with their reason', () => {
    ws = makeTestWorkspace();
    const outside = fs.mkdtempSync(path.join(path.dirname(ws.root), 'outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'AGENTS.md'), 'secret rules');
      fs.symlinkSync(path.join(outside, 'AGENTS.md'), path.join(ws.root, 'AGENTS.md'));
      ws.write('.env', 'TOKEN=1');
      fs.mkdirSync(path.join(ws.root, 'lib'));
      fs.symlinkSync(path.join(ws.root, '.env'), path.join(ws.root, 'lib', 'AGENTS.md'));
      ws.write('bin/AGENTS.md', Buffer.from([0x41, 0x00, 0x42]));
      const r = rules();
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

  test('CLAUDE.md linked to (or copied from) AGENTS.md is read once', () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'shared rules');
    fs.symlinkSync('AGENTS.md', path.join(ws.root, 'CLAUDE.md'));
    ws.write('.cursorrules', 'shared rules');
    const r = rules();
    assert.deepEqual(paths(r), ['AGENTS.md']);
    assert.deepEqual(skipped(r), [
      ['CLAUDE.md', 'duplicate'],
      ['.cursorrules', 'duplicate'],
    ]);
  });

  test('at most MAX_RULES_FILES files', () => {
    ws = makeTestWorkspace();
    for (let i = 0; i <= MAX_RULES_FILES; i++) ws.write(`p${String(i).padStart(3, '0')}/AGENTS.md`, `rules ${i}`);
    const r = rules();
    assert.equal(r.current().files.length, MAX_RULES_FILES);
    assert.deepEqual(skipped(r), [[`p${String(MAX_RULES_FILES).padStart(3, '0')}/AGENTS.md`, 'too_many_files']]);
  });
});

describe('ProjectRules caps', () => {
  test('a file over the per-file cap is cut with a visible marker, at a UTF-8 boundary', () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'é'.repeat(100));
    const r = rules({ maxFileBytes: 51 });
    const [file] = r.current().files;
    assert.equal(file.truncated, true);
    assert.equal(file.bytes, 200);
    const prompt = r.current().prompt;
    assert.ok(prompt.includes(`${'é'.repeat(25)}\n[… truncated by Catalyst Code: AGENTS.md is 200 bytes, only the first 50 are shown`));
    assert.ok(!prompt.includes('\uFFFD'));
  });

  test('the total cap cuts the file that crosses it and leaves out the rest, each with a marker', () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'a'.repeat(60));
    ws.write('CLAUDE.md', 'b'.repeat(60));
    ws.write('.cursorrules', 'c'.repeat(10));
    const r = rules({ maxTotalBytes: 100 });
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

describe('ProjectRules settings and refresh', () => {
  test('a source turned off is neither read nor walked for', () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'agents');
    ws.write('sub/CLAUDE.md', 'claude');
    ws.write('.cursorrules', 'cursor');
    const r = rules({ enabled: new Set<RuleSource>(['agents_md', 'cursorrules']) });
    assert.deepEqual(paths(r), ['AGENTS.md', '.cursorrules']);
    assert.deepEqual(r.current().disabled, ['claude_md', 'copilot_instructions', 'clinerules']);
    assert.ok(!r.current().prompt.includes('claude'));
  });

  test('a refresh sees a new nested file, an edit and a removal; an unchanged tree reports no change', () => {
    ws = makeTestWorkspace();
    ws.write('AGENTS.md', 'one');
    const r = rules();
    assert.equal(r.refresh().changed, true);
    assert.equal(r.refresh().changed, false);
    ws.write('sub/AGENTS.md', 'nested');
    assert.equal(r.refresh().changed, true);
    assert.deepEqual(paths(r), ['AGENTS.md', 'sub/AGENTS.md']);
    ws.write('AGENTS.md', 'one, now longer');
    assert.equal(r.refresh().changed, true);
    assert.ok(r.current().prompt.includes('one, now longer'));
    fs.rmSync(path.join(ws.root, 'sub'), { recursive: true });
    assert.equal(r.refresh().changed, true);
    assert.deepEqual(paths(r), ['AGENTS.md']);
  });

  test('no rules files: no prompt section', () => {
    ws = makeTestWorkspace();
    assert.equal(rules().current().prompt, '');
    assert.equal(rules().current().tokens, 0);
  });
});
