import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { loadToolsTool } from './loadToolsTool';
import { coreTools } from '../app/allTools';

const { newLoadedTools, offered: offeredTools } = coreTools;

const ws = makeTestWorkspace();
process.on('exit', () => ws.cleanup());

describe('load_tools', () => {
  test('a group enables its members this core has, for the session, and names the ones it lacks', async () => {
    const ctx = ws.context();
    assert.ok(!offeredTools(ctx.loadedTools).some((t) => t.name === 'git_status'), 'deferred tools start unoffered');
    const outcome = await loadToolsTool.execute({ tools: ['git'] }, ctx);
    assert.equal(outcome.ok, true);
    assert.equal(
      outcome.output,
      'Enabled: git_add, git_commit, git_diff, git_log, git_status\nThese tools are available on subsequent model rounds this session.',
    );
    assert.ok(offeredTools(ctx.loadedTools).some((t) => t.name === 'git_commit'));
    const browser = await loadToolsTool.execute({ tool: 'browser' }, ctx);
    assert.match(browser.output, /^Not in this core \(skipped\): browser_back, .*\nNothing to enable\.$/);
  });

  test('names already enabled or always offered are said so', async () => {
    const ctx = ws.context();
    await loadToolsTool.execute({ tool: 'git_log' }, ctx);
    const outcome = await loadToolsTool.execute({ tools: ['git_log', 'read_file', 'git_diff'] }, ctx);
    assert.equal(
      outcome.output,
      'Enabled: git_diff\nAlready enabled: git_log\nAlways available, no loading needed: read_file\nThese tools are available on subsequent model rounds this session.',
    );
  });

  test('an unknown name is a tool error listing the valid names; the known ones are still enabled', async () => {
    const ctx = ws.context();
    const outcome = await loadToolsTool.execute({ tools: ['git_status', 'test_env', 'nope'] }, ctx);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.status, 'failed');
    const valid = ctx.loadedTools.available.join(', ');
    assert.equal(
      outcome.output,
      `Enabled: git_status\nUnknown tools: nope, test_env. Valid names: ${valid}; groups: all, git, web, bulk, browser.`,
    );
    assert.ok(ctx.loadedTools.has('git_status'));
  });

  test('nothing requested lists what can be loaded; malformed arguments are refused', async () => {
    const ctx = ws.context();
    assert.match(
      (await loadToolsTool.execute({}, ctx)).output,
      /^No tools requested\. Deferred tools: git_status.*Groups: all, git, web, bulk, browser\./,
    );
    assert.match((await loadToolsTool.execute({ tools: 'git' }, ctx)).output, /'tools' must be an array/);
  });

  test('clearing the session set takes the tools off offer again', () => {
    const loaded = newLoadedTools();
    loaded.load(['all']);
    assert.deepEqual(
      offeredTools(loaded)
        .filter((t) => t.deferred)
        .map((t) => t.name),
      loaded.available,
    );
    loaded.clear();
    assert.deepEqual(
      offeredTools(loaded).filter((t) => t.deferred),
      [],
    );
  });

  test('targets nothing', () => assert.deepEqual(loadToolsTool.targets({ tools: ['git'] }), { paths: [] }));
});
