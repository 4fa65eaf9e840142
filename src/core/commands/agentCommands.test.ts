import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../config/cli';
import { loadConfig } from '../config/config';
import { createCoreRuntime } from '../app/createCoreRuntime';
import { handleListAgents, stageAgentsQuietly } from './agentCommands';

test('list_agents answers agents{name, description, source}, sorted, from the three scopes; staging makes the builtins user files', () => {
  const root = mkdtempSync(join(tmpdir(), 'agents-cmd-'));
  try {
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, '.catalyst-code', 'agents'), { recursive: true });
    writeFileSync(join(ws, '.catalyst-code', 'agents', 'a.md'), '---\nname: aaa\ndescription: the project one\n---\nHi.\n');
    const lines: string[] = [];
    const rt = createCoreRuntime(
      loadConfig(parseCli([]), {}, { home, cwd: ws }),
      {},
      (line) => lines.push(line),
      () => {},
    );
    const listed = () => {
      lines.length = 0;
      handleListAgents(rt);
      assert.equal(lines.length, 1);
      const event = JSON.parse(lines[0]);
      assert.equal(event.type, 'agents');
      return (event.agents as { name: string; description: string; source: string }[]).map((a) => [a.name, a.source]);
    };
    const builtins = ['context-builder', 'delegate', 'oracle', 'planner', 'researcher', 'reviewer', 'scout', 'worker'];
    assert.deepEqual(listed(), [['aaa', 'project'], ...builtins.map((n) => [n, 'builtin'])]);
    stageAgentsQuietly(rt);
    assert.deepEqual(listed(), [['aaa', 'project'], ...builtins.map((n) => [n, 'user'])]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
