import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCli } from '../config/cli';
import { loadConfig } from '../config/config';
import { createCoreRuntime } from './createCoreRuntime';
import { ChildScope } from '../runtime/childScope';
import { RunScope } from '../runtime/runScope';

test("a child's tool context: its signal, depth and workspace, its own todos, no sudo and no ask", async () => {
  const root = mkdtempSync(join(tmpdir(), 'rt-child-'));
  try {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const rt = createCoreRuntime(
      loadConfig(parseCli([]), {}, { home: join(root, 'home'), cwd: ws }),
      {},
      () => {},
      () => {},
    );
    const turn = new RunScope(rt.sessionId, 'turn-1', 'turn');
    const child = new ChildScope('run-1', 'turn-1', turn, 'subagent-w-run1', 1, turn.signal);
    rt.todos = [{ subject: 'the user’s plan', status: 'pending' }];
    const ctx = rt.childToolContext(child, '/elsewhere');
    assert.equal(ctx.signal, child.signal);
    assert.equal(ctx.depth, 1);
    assert.equal(ctx.workspace, '/elsewhere');
    ctx.todos.set([{ subject: 'child step', status: 'in_progress' }]);
    assert.deepEqual(
      rt.todos.map((t) => t.subject),
      ['the user’s plan'],
    );
    assert.deepEqual(
      rt
        .childToolContext(child, undefined)
        .todos.get()
        .map((t) => t.subject),
      ['child step'],
      'kept across the calls of one child',
    );
    assert.equal(rt.childToolContext(child, undefined).workspace, rt.workspace);
    assert.deepEqual(await ctx.requestSudo('ls'), { approved: false });
    await assert.rejects(() => ctx.ask([{ id: 'q', prompt: 'p', type: 'text' }]), /contact_supervisor/);
    rt.conversation.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
