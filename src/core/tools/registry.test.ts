import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UPSTREAM_DEFERRED_TOOLS } from './deferredGroups';
import { ALL_TOOLS, coreTools } from '../app/allTools';

const { get: getTool, kind: toolKind, offered: offeredTools, newLoadedTools } = coreTools;
/** The tools a session is offered or may load; goal_write_plan (`turnOnly`) is its planning turn's alone. */
const CORE_TOOLS = ALL_TOOLS.filter((tool) => !tool.turnOnly);
import { UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN } from './upstreamReadonlyTools';

/** Upstream's read-only tools, all of them (research §4.3): every other tool is destructive. */
const UPSTREAM_READONLY_TOOLS = [
  'read_file',
  'list_dir',
  'grep',
  'glob',
  'bulk_read',
  'todo_read',
  'diagnostics',
  'git_status',
  'git_diff',
  'git_log',
  'workspace_activity',
  'web_search',
  'memory',
  'knowledge',
  'collections',
  'ask',
  'contact_supervisor',
  'intercom',
  'finish',
  'load_tools',
  'goal_write_plan',
  'browser_list_sessions',
  'browser_snapshot',
  'browser_find',
  'browser_screenshot',
];

describe('registry', () => {
  test('offers the core tool set, each with a schema of the same name', () => {
    assert.deepEqual(
      CORE_TOOLS.map((tool) => tool.name),
      [
        'read_file',
        'write_file',
        'edit',
        'patch',
        'delete',
        'rename',
        'mkdir',
        'list_dir',
        'grep',
        'glob',
        'bash',
        'todo_write',
        'todo_read',
        'ask',
        'finish',
        'memory',
        'load_tools',
        'git_status',
        'git_diff',
        'git_log',
        'git_add',
        'git_commit',
        'diagnostics',
        'bulk',
        'bulk_read',
        'bulk_write',
        'bulk_edit',
        'workspace_activity',
        'fetch',
        'web_search',
        'subagent',
        'spawn',
        'contact_supervisor',
        'intercom',
      ],
    );
    for (const tool of CORE_TOOLS) {
      assert.equal(tool.schema.name, tool.name);
      assert.equal(getTool(tool.name), tool);
    }
    assert.equal(getTool('nope'), undefined);
  });

  test('each built-in declares the kind upstream gives it', () => {
    for (const tool of CORE_TOOLS) {
      assert.equal(tool.kind, UPSTREAM_READONLY_TOOLS.includes(tool.name) ? 'readonly' : 'destructive', tool.name);
    }
  });

  test("exactly upstream's deferred tools wait for load_tools", () => {
    for (const tool of CORE_TOOLS) assert.equal(!!tool.deferred, UPSTREAM_DEFERRED_TOOLS.includes(tool.name), tool.name);
  });

  test("exactly upstream's parallel-safe tools join a read wave (tooling/metadata.rs ParallelSafety::Safe)", () => {
    const upstreamSafe = [
      'read_file',
      'list_dir',
      'grep',
      'glob',
      'bulk_read',
      'todo_read',
      'diagnostics',
      'git_status',
      'git_diff',
      'git_log',
      'workspace_activity',
      'fetch',
      'web_search',
    ];
    for (const tool of CORE_TOOLS) assert.equal(!!tool.parallelSafe, upstreamSafe.includes(tool.name), tool.name);
  });

  test('the kinds of tools not built in are upstream read-only list minus the built-ins', () => {
    const builtIn = new Set(CORE_TOOLS.map((tool) => tool.name));
    assert.deepEqual([...UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN].sort(), UPSTREAM_READONLY_TOOLS.filter((name) => !builtIn.has(name)).sort());
  });

  test('classifies like upstream and fails closed for unknown tools', () => {
    for (const name of ['read_file', 'list_dir', 'grep', 'glob', 'todo_read', 'ask', 'git_status', 'web_search', 'finish'])
      assert.equal(toolKind(name), 'readonly', name);
    for (const name of [
      'write_file',
      'edit',
      'patch',
      'delete',
      'rename',
      'mkdir',
      'bash',
      'todo_write',
      'fetch',
      'git_commit',
      'subagent',
      'spawn',
      'my_plugin_tool',
    ])
      assert.equal(toolKind(name), 'destructive', name);
  });

  test('withheld tools are not offered even when loaded, and absent ones cannot be loaded (web tools turned off)', () => {
    const loaded = newLoadedTools();
    loaded.load(['web']);
    const names = (withheld?: ReadonlySet<string>) => offeredTools(loaded, withheld).map((tool) => tool.name);
    assert.ok(names().includes('fetch') && names().includes('web_search'));
    assert.ok(!names(new Set(['web_search'])).includes('web_search'));
    assert.ok(names(new Set(['web_search'])).includes('fetch'));
    const off = newLoadedTools(['fetch', 'web_search']);
    assert.deepEqual(off.load(['web']).notInThisCore, ['fetch', 'web_search']);
    assert.ok(!offeredTools(off).some((tool) => tool.name === 'fetch'));
  });

  test("a child's intercom tools are never offered to the main agent, even with every deferred tool loaded", () => {
    const loaded = newLoadedTools();
    loaded.load(['all']);
    const names = offeredTools(loaded).map((tool) => tool.name);
    assert.equal(names.includes('contact_supervisor'), false);
    assert.equal(names.includes('intercom'), false);
    assert.ok(names.includes('subagent'));
    assert.ok(getTool('contact_supervisor'));
    assert.ok(getTool('intercom'));
  });

  test('permission rules match path globs for the tools whose target is a file path, not for grep, glob or git', () => {
    assert.deepEqual(
      CORE_TOOLS.filter((tool) => tool.pathRules).map((tool) => tool.name),
      ['read_file', 'write_file', 'edit', 'patch', 'delete', 'rename', 'mkdir', 'list_dir', 'bulk_read', 'bulk_write', 'bulk_edit'],
    );
  });
});
