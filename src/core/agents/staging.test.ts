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
