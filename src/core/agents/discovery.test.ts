import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentDirs, agentInfos, agentsInScope, discoverAgents, findAgent } from './discovery';

function withDirs(body: (home: string, ws: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'agents-'));
  try {
    body(join(root, 'home'), join(root, 'ws'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function writeAgent(path: string, frontmatter: string, body = 'prompt'): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `---\n${frontmatter}\n---\n${body}\n`);
}

const BUILTIN_NAMES = ['context-builder', 'delegate', 'oracle', 'planner', 'researcher', 'reviewer', 'scout', 'worker'];

describe('discoverAgents', () => {
  test('without files: the eight builtins, sorted', () => {
    withDirs((home, ws) => {
      const agents = discoverAgents(agentDirs(home, ws));
      assert.deepEqual(
        agents.map((a) => [a.name, a.source]),
        BUILTIN_NAMES.map((n) => [n, 'builtin']),
      );
    });
  });

  test('builtin < user < project, by name, through subdirectories; other files and nameless ones are skipped', () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.user, 'scout.md'), 'name: scout\ndescription: user scout');
      writeAgent(join(dirs.user, 'team', 'deep', 'helper.md'), 'name: helper\ndescription: user helper');
      writeAgent(join(dirs.user, 'mine.md'), 'name: mine\ndescription: only mine');
      writeAgent(join(dirs.project, 'nested', 'helper.md'), 'name: helper\ndescription: project helper');
      writeAgent(join(dirs.project, 'worker.md'), 'name: worker\ndescription: project worker', 'Project worker prompt.');
      writeAgent(join(dirs.project, 'notes.txt'), 'name: notes');
      writeAgent(join(dirs.project, 'nameless.md'), 'description: none');
      const agents = discoverAgents(dirs);
      const byName = new Map(agents.map((a) => [a.name, a]));
      assert.deepEqual(
        agents.map((a) => a.name),
        [...BUILTIN_NAMES, 'helper', 'mine'].sort(),
      );
      assert.deepEqual(
        ['scout', 'helper', 'mine', 'worker', 'planner'].map((n) => [byName.get(n)!.source, byName.get(n)!.description]),
        [
          ['user', 'user scout'],
          ['project', 'project helper'],
          ['user', 'only mine'],
          ['project', 'project worker'],
          ['builtin', byName.get('planner')!.description],
        ],
      );
      assert.equal(byName.get('worker')!.prompt, 'Project worker prompt.');
      assert.equal(byName.get('worker')!.path, join(dirs.project, 'worker.md'));
      // A file replaces the whole builtin: it declared no tools, so it has none of the builtin's.
      assert.deepEqual(byName.get('worker')!.tools, []);
    });
  });

  test('disabled: true hides the agent of its name from the lower scopes', () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.user, 'helper.md'), 'name: helper');
      writeAgent(join(dirs.project, 'off-helper.md'), 'name: helper\ndisabled: true');
      writeAgent(join(dirs.user, 'off-oracle.md'), 'name: oracle\ndisabled: true');
      const names = discoverAgents(dirs).map((a) => a.name);
      assert.equal(names.includes('helper'), false);
      assert.equal(names.includes('oracle'), false);
      assert.equal(names.includes('scout'), true);
    });
  });

  test('a directory symlink loop ends', () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.project, 'a', 'x.md'), 'name: x');
      symlinkSync(join(dirs.project, 'a'), join(dirs.project, 'a', 'loop'));
      assert.equal(discoverAgents(dirs).filter((a) => a.name === 'x').length, 1);
    });
  });
});

describe('discoverAgents with settings', () => {
  test('agentOverrides change builtins only; a disabled override hides one; disableBuiltins leaves the files', () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.project, 'planner.md'), 'name: planner\nmodel: file-model');
      writeAgent(join(dirs.project, 'mine.md'), 'name: mine');
      const agents = discoverAgents(dirs, {
        agentOverrides: {
          scout: { model: 'fast-1', fallbackModels: ['b'], thinking: 'high' },
          worker: { disabled: true },
          planner: { model: 'ignored' },
          mine: { model: 'ignored' },
        },
      });
      const byName = new Map(agents.map((a) => [a.name, a]));
      assert.deepEqual(
        [byName.get('scout')!.model, byName.get('scout')!.fallbackModels, byName.get('scout')!.thinking],
        ['fast-1', ['b'], 'high'],
      );
      assert.equal(byName.has('worker'), false);
      assert.equal(byName.get('planner')!.model, 'file-model');
      assert.equal(byName.get('mine')!.model, undefined);
      assert.deepEqual(
        discoverAgents(dirs, { disableBuiltins: true }).map((a) => [a.name, a.source]),
        [
          ['mine', 'project'],
          ['planner', 'project'],
        ],
      );
    });
  });
});

describe('findAgent and agentInfos', () => {
  test('an exact name, else the last dot-segment', () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.project, 'pkg.md'), 'name: pkg.scout\ndescription: dotted');
      const agents = discoverAgents(dirs);
      assert.equal(findAgent(agents, 'pkg.scout')?.description, 'dotted');
      assert.equal(findAgent(agents, 'code-analysis.scout')?.source, 'builtin');
      assert.equal(findAgent(agents, 'scout')?.source, 'builtin');
      assert.equal(findAgent(agents, 'nobody'), undefined);
      assert.equal(findAgent(agents, ''), undefined);
    });
  });

  test("the agents event's entries: name, description, source", () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.user, 'a.md'), 'name: aaa\ndescription: first');
      assert.deepEqual(agentInfos(discoverAgents(dirs))[0], { name: 'aaa', description: 'first', source: 'user' });
    });
  });
});

describe("agentsInScope (the subagent tool's agentScope)", () => {
  test("user leaves out the workspace's files, project the user's: a left-out agent gives way to the one it replaced", () => {
    withDirs((home, ws) => {
      const dirs = agentDirs(home, ws);
      writeAgent(join(dirs.user, 'helper.md'), 'name: helper\ndescription: user helper');
      writeAgent(join(dirs.user, 'scout.md'), 'name: scout\ndescription: user scout');
      writeAgent(join(dirs.user, 'mine.md'), 'name: mine\ndescription: only mine');
      writeAgent(join(dirs.project, 'helper.md'), 'name: helper\ndescription: project helper');
      writeAgent(join(dirs.project, 'scout.md'), 'name: scout\ndescription: project scout');
      writeAgent(join(dirs.project, 'local.md'), 'name: local\ndescription: only here');
      const agents = discoverAgents(dirs);
      const pick = (scope: 'user' | 'project' | 'both', name: string) => findAgent(agentsInScope(agents, scope), name)?.description;
      assert.deepEqual(
        ['helper', 'scout', 'mine', 'local'].map((name) => [name, pick('both', name), pick('user', name), pick('project', name)]),
        [
          ['helper', 'project helper', 'user helper', 'project helper'],
          ['scout', 'project scout', 'user scout', 'project scout'],
          ['mine', 'only mine', 'only mine', undefined],
          ['local', 'only here', undefined, 'only here'],
        ],
      );
      const builtinScout = findAgent(discoverAgents(agentDirs(join(home, 'none'), join(ws, 'none'))), 'scout')!.description;
      writeAgent(join(dirs.project, 'scout.md'), 'name: scout\ndescription: project scout');
      rmSync(join(dirs.user, 'scout.md'));
      assert.equal(pick('user', 'delegate') !== undefined, true, 'the builtins are in every scope');
      assert.equal(
        findAgent(agentsInScope(discoverAgents(dirs), 'user'), 'scout')!.description,
        builtinScout,
        'under the project file, the builtin',
      );
    });
  });
});
