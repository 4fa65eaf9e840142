import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CORE_TOOLS, getTool, toolKind, toolTargets } from './registry';

describe('registry', () => {
  test('offers the core tool set, each with a schema of the same name', () => {
    assert.deepEqual(CORE_TOOLS.map((tool) => tool.name), [
      'read_file', 'write_file', 'edit', 'patch', 'delete', 'rename', 'mkdir', 'list_dir', 'grep', 'glob', 'bash', 'todo_write', 'todo_read', 'ask',
    ]);
    for (const tool of CORE_TOOLS) {
      assert.equal(tool.schema.name, tool.name);
      assert.equal(tool.kind, toolKind(tool.name), tool.name);
      assert.equal(getTool(tool.name), tool);
    }
    assert.equal(getTool('nope'), undefined);
  });

  test('classifies like upstream and fails closed for unknown tools', () => {
    for (const name of ['read_file', 'list_dir', 'grep', 'glob', 'todo_read', 'ask', 'git_status', 'web_search', 'finish']) assert.equal(toolKind(name), 'readonly', name);
    for (const name of ['write_file', 'edit', 'patch', 'delete', 'rename', 'mkdir', 'bash', 'todo_write', 'fetch', 'git_commit', 'my_plugin_tool']) assert.equal(toolKind(name), 'destructive', name);
  });

  test('reports the paths and command a call touches', () => {
    assert.deepEqual(toolTargets('edit', { path: 'a.ts', edits: [] }), { paths: ['a.ts'] });
    assert.deepEqual(toolTargets('rename', { from: 'a', to: 'b' }), { paths: ['a', 'b'] });
    assert.deepEqual(toolTargets('grep', { pattern: 'x' }), { paths: ['.'] });
    assert.deepEqual(toolTargets('grep', { pattern: 'x', path: 'src', paths: ['a', 'b'] }), { paths: ['a', 'b'] });
    assert.deepEqual(toolTargets('list_dir', {}), { paths: ['.'] });
    assert.deepEqual(toolTargets('glob', { pattern: '**/*.ts' }), { paths: ['.'] });
    assert.deepEqual(toolTargets('bash', { command: 'ls -la' }), { paths: [], command: 'ls -la' });
    assert.deepEqual(toolTargets('todo_write', { todos: [] }), { paths: [] });
  });
});
