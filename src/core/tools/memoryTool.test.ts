import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { memoryTool } from './memoryTool';
import type { ToolContext } from './types';

describe('memory', () => {
  let ws: TestWorkspace;
  let ctx: ToolContext;
  beforeEach(() => {
    ws = makeTestWorkspace();
    ctx = ws.context();
  });
  afterEach(() => ws.cleanup());
  const run = (args: object) => memoryTool.execute(args as Record<string, unknown>, ctx);

  test('save stores in the workspace scope by default, list shows it, get returns its full text', async () => {
    const saved = await run({
      action: 'save',
      name: 'tests',
      type: 'convention',
      content: 'Run tests with npm test.\nNever the e2e suite.',
    });
    assert.equal(saved.ok, true);
    const [entry] = ctx.memory.list();
    assert.equal(saved.output, `saved memory ${entry.id} (workspace)`);
    assert.deepEqual(entry.tags, ['tests', 'convention']);
    assert.equal((await run({ action: 'list' })).output, `- ${entry.id} [workspace; tests, convention]: Run tests with npm test.`);
    assert.equal((await run({ action: 'get', id: entry.id })).output, 'Run tests with npm test.\nNever the e2e suite.');
    assert.equal((await run({ action: 'get', id: 'tests' })).output, 'Run tests with npm test.\nNever the e2e suite.', 'found by name');
  });

  test('scope:global saves there; list and forget honour a scope', async () => {
    await run({ action: 'save', content: 'global fact', scope: 'global' });
    await run({ action: 'save', content: 'local fact' });
    assert.match((await run({ action: 'list', scope: 'global' })).output, /^- global-fact-\w+ \[global\]: global fact$/);
    const local = ctx.memory.list().find((e) => e.scope === 'workspace')!;
    assert.equal((await run({ action: 'forget', id: local.id, scope: 'global' })).ok, false, 'not in that scope');
    assert.equal((await run({ action: 'forget', id: local.id })).output, `forgot memory ${local.id} (workspace)`);
    assert.deepEqual(
      ctx.memory.list().map((e) => e.text),
      ['global fact'],
    );
  });

  test("upstream's other actions are answered as not supported by this core; bad arguments are refused", async () => {
    for (const action of ['consolidate', 'stats', 'deprecate', 'migrate']) {
      const outcome = await run({ action, name: 'x', content: 'y' });
      assert.equal(outcome.ok, false);
      assert.equal(outcome.output, `memory action '${action}' is not supported by this core; it supports save, append, list, get, forget`);
    }
    assert.match((await run({ action: 'fly' })).output, /^unknown memory action 'fly'/);
    assert.match((await run({})).output, /'action' is required/);
    assert.match((await run({ action: 'save' })).output, /'content' is required/);
    assert.match((await run({ action: 'list', scope: 'team' })).output, /'scope' must be/);
    assert.equal((await run({ action: 'list' })).output, 'No memories saved.');
    assert.equal((await run({ action: 'get', id: 'missing' })).output, "no memory with id 'missing'");
  });

  test('append adds to the memory of that name, keeping its tags and scope; with none, it saves a new one', async () => {
    await run({ action: 'append', name: 'build', content: 'npm run build bundles the core.', scope: 'global' });
    const [first] = ctx.memory.list();
    assert.deepEqual([first.text, first.tags, first.scope], ['npm run build bundles the core.', ['build'], 'global']);
    const appended = await run({ action: 'append', name: 'build', content: 'It must run under the e2e lock.' });
    const [entry] = ctx.memory.list();
    assert.equal(appended.output, `appended to memory build: now ${entry.id} (global)`);
    assert.deepEqual(
      [entry.text, entry.tags, entry.scope],
      ['npm run build bundles the core.\nIt must run under the e2e lock.', ['build'], 'global'],
    );
    assert.equal(ctx.memory.list().length, 1);
    assert.match((await run({ action: 'append', content: 'x' })).output, /'name' is required/);
  });

  test('targets nothing', () => assert.deepEqual(memoryTool.targets({ action: 'list' }), { paths: [] }));
});
