import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinAgents } from './builtinAgents';
import { agentDirs, discoverAgents } from './discovery';
import { stageBuiltinAgents } from './staging';

test('stages only the missing builtin files, never over a user file, and writes no .staged marker', () => {
  const home = mkdtempSync(join(tmpdir(), 'stage-'));
  try {
    const dir = join(home, '.catalyst-code', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'reviewer.md'), '---\nname: reviewer\nmodel: default\n---\nMy own reviewer.\n');
    const written = stageBuiltinAgents(home);
    assert.deepEqual(written.map((p) => p.slice(dir.length + 1)).sort(), [
      'context-builder.md',
      'delegate.md',
      'oracle.md',
      'planner.md',
      'researcher.md',
      'scout.md',
      'worker.md',
    ]);
    assert.equal(readFileSync(join(dir, 'reviewer.md'), 'utf8'), '---\nname: reviewer\nmodel: default\n---\nMy own reviewer.\n');
    assert.equal(existsSync(join(home, '.catalyst-code', '.staged')), false);
    assert.deepEqual(readdirSync(join(home, '.catalyst-code')), ['agents']);
    assert.deepEqual(stageBuiltinAgents(home), []);

    // The staged files are user-scope agents equal to the builtins (the user's reviewer aside).
    const agents = discoverAgents(agentDirs(home, join(home, 'no-ws')));
    const builtins = new Map(builtinAgents().map((a) => [a.name, a]));
    for (const agent of agents) {
      assert.equal(agent.source, 'user', agent.name);
      if (agent.name === 'reviewer') assert.equal(agent.prompt, 'My own reviewer.');
      else assert.deepEqual({ ...agent, source: 'builtin', path: undefined }, { ...builtins.get(agent.name), path: undefined });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('the builtin settings still apply to the unedited staged copies, not to a copy the user edited', () => {
  const home = mkdtempSync(join(tmpdir(), 'stage-'));
  try {
    stageBuiltinAgents(home);
    const dir = join(home, '.catalyst-code', 'agents');
    writeFileSync(join(dir, 'planner.md'), readFileSync(join(dir, 'planner.md'), 'utf8').replace('thinking: high', 'thinking: low'));
    const dirs = agentDirs(home, join(home, 'no-ws'));
    const agents = discoverAgents(dirs, {
      agentOverrides: { scout: { model: 'fast-1' }, planner: { model: 'ignored' }, oracle: { disabled: true } },
    });
    const byName = new Map(agents.map((a) => [a.name, a]));
    assert.equal(byName.get('scout')?.model, 'fast-1');
    assert.equal(byName.get('planner')?.model, undefined);
    assert.equal(byName.get('planner')?.thinking, 'low');
    assert.equal(byName.has('oracle'), false);
    assert.deepEqual(
      discoverAgents(dirs, { disableBuiltins: true }).map((a) => a.name),
      ['planner'],
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
