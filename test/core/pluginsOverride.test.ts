// A plugin tool with `override: true` replaces a built-in for the main agent only (research A §7.5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin } from '../support/pluginFixtures';
import type { ScriptedResponse } from '../support/scriptedModelServer';

const says = (text: string): ScriptedResponse => ({ steps: [{ text }] });
const calls = (id: string, name: string, args: object): ScriptedResponse => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const schemaOf = (request: any, name: string) => request.body.tools.filter((t: any) => (t.function?.name ?? t.name) === name);
const descriptionOf = (schema: any) => schema.function?.description ?? schema.description;

test(
  'override:true replaces a built-in for the main agent (approved by its declared kind); a child keeps the built-in; no override collides',
  {
    timeout: 60_000,
  },
  async () => {
    const home = tempDir('core-home-');
    const marker = join(tempDir('override-marker-'), 'calls');
    const record = (what: string) => `require('fs').appendFileSync(${JSON.stringify(marker)}, ${what} + '\\n');`;
    writePlugin(globalPluginsDir(home), 'shadow', {
      manifest: {
        name: 'shadow',
        version: '1',
        tools: [
          {
            name: 'read_file',
            override: true,
            description: 'SHADOW read',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
            script: 'read.js',
          },
          { name: 'bash', description: 'SHADOW bash', script: 'bash.js' },
        ],
      },
      files: {
        'read.js': script(`${record("'read ' + input.args.path")} answer({ ok: true, output: 'shadow: ' + input.args.path });`),
        'bash.js': script(`${record("'bash'")} answer({ ok: true, output: 'shadow bash' });`),
      },
    });
    const s = await startScenario({
      home,
      files: { 'a.txt': 'REAL CONTENT\n' },
      script: [
        calls('r1', 'read_file', { path: 'a.txt' }),
        calls('b1', 'bash', { command: 'echo real-bash' }),
        calls('p1', 'subagent', { agent: 'delegate', task: '[child] read it' }),
        says('parent done'),
      ],
      routes: { '[child]': [calls('c1', 'read_file', { path: 'a.txt' }), says('child done')] },
    });
    try {
      const events = await s.turnAnswering('read it', ['yes', 'yes', 'yes']);
      const approvals = events.filter((e) => e.type === 'approval_request').map((e) => [e.tool, e.risk]);
      assert.deepEqual(approvals, [
        ['read_file', 'destructive'],
        ['bash', 'destructive'],
        ['subagent', 'destructive'],
      ]);
      const result = (id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);
      assert.deepEqual([result('r1').ok, result('r1').output], [true, 'shadow: a.txt']);
      assert.equal(result('b1').ok, true);
      assert.match(result('b1').output, /real-bash/);
      const child = events.find((e) => e.type === 'subagent_tool_result' && e.call_id === 'c1');
      assert.equal(child.ok, true);
      assert.match(child.result, /REAL CONTENT/);

      const mainRequest = s.model.requests.find((r) => r.method === 'POST')!;
      assert.deepEqual(schemaOf(mainRequest, 'read_file').map(descriptionOf), ['SHADOW read'], 'the override replaces the schema, once');
      assert.deepEqual(schemaOf(mainRequest, 'bash').length, 1);
      assert.notEqual(descriptionOf(schemaOf(mainRequest, 'bash')[0]), 'SHADOW bash', 'without override the built-in stays');
      const childRequest = s.model.requestsFor('[child]')[0];
      assert.notEqual(descriptionOf(schemaOf(childRequest, 'read_file')[0]), 'SHADOW read');
      // Read after done: the main agent's read_file ran the handler once; the child's read and bash never did.
      assert.equal(readFileSync(marker, 'utf8'), 'read a.txt\n');
    } finally {
      await s.close();
    }
  },
);

test('an override of a parallel-safe built-in runs its calls in turn, not in the read wave', { timeout: 60_000 }, async () => {
  const home = tempDir('core-home-');
  writePlugin(globalPluginsDir(home), 'shadow', {
    manifest: {
      name: 'shadow',
      version: '1',
      tools: [{ name: 'read_file', override: true, kind: 'readonly', script: 'read.js' }],
    },
    files: { 'read.js': script("answer({ ok: true, output: 'shadow: ' + input.args.path });") },
  });
  const s = await startScenario({
    home,
    script: [
      {
        steps: [
          { toolCall: { id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } } },
          { toolCall: { id: 'r2', name: 'read_file', arguments: { path: 'b.txt' } } },
        ],
      },
      says('done'),
    ],
  });
  try {
    const events = await s.turn('read both');
    const order = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result').map((e) => `${e.type} ${e.id}`);
    // A read wave would announce both calls before either result (call r1, call r2, result…); readonly: no approval.
    assert.deepEqual(order, ['tool_call r1', 'tool_result r1', 'tool_call r2', 'tool_result r2']);
    assert.deepEqual(
      events.filter((e) => e.type === 'tool_result').map((e) => e.output),
      ['shadow: a.txt', 'shadow: b.txt'],
    );
  } finally {
    await s.close();
  }
});

test(
  'the approval of an override of write_file shows no built-in diff: the handler, not the built-in, decides',
  { timeout: 60_000 },
  async () => {
    const home = tempDir('core-home-');
    writePlugin(globalPluginsDir(home), 'shadow', {
      manifest: { name: 'shadow', version: '1', tools: [{ name: 'write_file', override: true, script: 'write.js' }] },
      files: { 'write.js': script("answer({ ok: true, output: 'shadow wrote ' + input.args.path });") },
    });
    const s = await startScenario({
      home,
      files: { 'a.txt': 'old\n' },
      script: [
        calls('w1', 'write_file', { path: 'a.txt', content: 'new\n' }),
        calls('w2', 'edit', { path: 'a.txt', edits: [{ search: 'old', replace: 'edited' }] }),
        says('done'),
      ],
    });
    try {
      const events = await s.turnAnswering('write it', ['yes', 'yes']);
      const requests = events.filter((e) => e.type === 'approval_request');
      assert.deepEqual(
        requests.map((e) => [e.tool, 'diff' in e]),
        [
          ['write_file', false],
          ['edit', true],
        ],
        'the built-in edit still shows its diff',
      );
      const result = (id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);
      assert.equal(result('w1').output, 'shadow wrote a.txt');
      assert.equal(result('w2').ok, true);
      assert.equal(readFileSync(join(s.core.workspace, 'a.txt'), 'utf8'), 'edited\n', 'only the built-in edit touched the file');
    } finally {
      await s.close();
    }
  },
);

test('an override of a deferred built-in is offered only once load_tools has loaded that built-in', { timeout: 60_000 }, async () => {
  const home = tempDir('core-home-');
  writePlugin(globalPluginsDir(home), 'shadow', {
    manifest: {
      name: 'shadow',
      version: '1',
      tools: [{ name: 'git_status', override: true, kind: 'readonly', description: 'SHADOW status', script: 'status.js' }],
    },
    files: { 'status.js': script("answer({ ok: true, output: 'shadow status' });") },
  });
  const s = await startScenario({
    home,
    script: [
      calls('s0', 'git_status', {}),
      calls('l1', 'load_tools', { tools: ['git_status'] }),
      calls('s1', 'git_status', {}),
      says('done'),
    ],
  });
  try {
    const events = await s.turn('status');
    const result = (id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);
    assert.match(result('s0').output, /^tool 'git_status' is deferred and not enabled this session\. Call load_tools/);
    assert.deepEqual([result('s1').ok, result('s1').output], [true, 'shadow status']);
    const requests = s.model.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(schemaOf(requests[0], 'git_status'), [], 'not offered before load_tools');
    assert.deepEqual(schemaOf(requests[2], 'git_status').map(descriptionOf), ['SHADOW status']);
  } finally {
    await s.close();
  }
});
