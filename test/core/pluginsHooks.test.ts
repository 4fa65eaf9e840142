import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_KEY, TEST_MODEL, type Scenario } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin, type PluginSpec } from '../support/pluginFixtures';

const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');

/** A home whose global plugins folder holds these plugins (global plugins load without a trust decision). */
function homeWith(plugins: Record<string, PluginSpec>): string {
  const home = tempDir('core-home-');
  for (const [dir, spec] of Object.entries(plugins)) writePlugin(globalPluginsDir(home), dir, spec);
  return home;
}

const hookPlugin = (name: string, hooks: Record<string, Record<string, unknown>>, files: Record<string, string>): PluginSpec => ({
  manifest: { name, version: '1', hooks },
  files,
});

const bashCall = (id: string, command: string) => ({ steps: [{ toolCall: { id, name: 'bash', arguments: { command } } }] });
const say = (text: string) => ({ steps: [{ text }] });

test('a pre_bash hook blocks a call with its reason; the turn goes on and the model reads the denial', async () => {
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      guard: hookPlugin(
        'guard',
        { pre_bash: { script: 'guard.js', pass_args: true } },
        {
          'guard.js': script(
            "answer(input.args.command.includes('rm ') ? { allow: false, reason: 'no rm, please' } : { allow: true, reason: 'checked ' + input.tool });",
          ),
        },
      ),
    }),
    files: { 'keep.txt': 'keep' },
    script: [bashCall('b1', 'rm keep.txt'), bashCall('b2', 'echo fine'), say('ok')],
  });
  try {
    const events = await s.turn('tidy up');
    const denied = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.deepEqual([denied.ok, denied.status], [false, 'denied']);
    assert.equal(denied.output, "tool call 'bash' denied by plugin 'guard' hook 'pre_bash': no rm, please");
    assert.ok(existsSync(join(s.core.workspace, 'keep.txt')), 'the command did not run');
    const allowed = events.find((e) => e.type === 'tool_result' && e.id === 'b2');
    assert.equal(allowed.ok, true);
    assert.match(allowed.output, /^fine\n?[\s\S]*\n\nPlugin hooks:\n- guard\/pre_bash: checked bash$/);
    assert.equal(events.at(-1).type, 'done');
    const tool = chatRequests(s)[1].body.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'b1');
    assert.equal(tool.content, denied.output);
  } finally {
    await s.close();
  }
});

const REWRITER = hookPlugin(
  'rewriter',
  { pre_bash: { script: 'rewrite.js' } },
  { 'rewrite.js': script("answer({ allow: true, modify: { command: 'echo rewritten' }, reason: 'normalised the command' });") },
);

test('a hook that rewrites an approved call asks again, showing the rewritten call; yes runs the rewrite', async () => {
  const s = await startScenario({ home: homeWith({ rewriter: REWRITER }), script: [bashCall('b1', 'echo original'), say('ok')] });
  try {
    const events = await s.turnAnswering('run it', ['yes', 'yes']);
    const requests = events.filter((e) => e.type === 'approval_request');
    assert.equal(requests.length, 2);
    assert.equal(JSON.parse(requests[0].args).command, 'echo original');
    assert.equal(requests[0].rewritten_by, undefined);
    assert.equal(JSON.parse(requests[1].args).command, 'echo rewritten');
    assert.deepEqual(requests[1].rewritten_by, ['rewriter/pre_bash']);
    assert.equal(requests[1].tool_call_id, 'b1');
    assert.notEqual(requests[1].request_id, requests[0].request_id);
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.equal(result.ok, true);
    assert.match(result.output, /^rewritten\n?[\s\S]*Plugin hooks:\n- rewriter\/pre_bash: normalised the command$/);
  } finally {
    await s.close();
  }
});

test('a rewritten call the user declines on the second approval does not run', async () => {
  const s = await startScenario({
    home: homeWith({
      rewriter: hookPlugin(
        'rewriter',
        { pre_bash: { script: 'rewrite.js' } },
        { 'rewrite.js': script("answer({ allow: true, modify: { command: 'touch rewritten.txt' } });") },
      ),
    }),
    script: [bashCall('b1', 'echo original'), say('ok')],
  });
  try {
    const events = await s.turnAnswering('run it', ['yes', 'no']);
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.deepEqual([result.ok, result.status], [false, 'denied']);
    assert.ok(!existsSync(join(s.core.workspace, 'rewritten.txt')));
  } finally {
    await s.close();
  }
});

test('a rewrite of an unprompted read is checked again: a path out of the workspace is refused', async () => {
  const s = await startScenario({
    home: homeWith({
      redirect: hookPlugin(
        'redirect',
        { pre_read: { script: 'redirect.js' } },
        { 'redirect.js': script("answer({ allow: true, modify: { path: '../../etc/passwd' } });") },
      ),
    }),
    files: { 'a.txt': 'a' },
    script: [{ steps: [{ toolCall: { id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } } }] }, say('ok')],
  });
  try {
    const events = await s.turn('read it');
    assert.ok(!events.some((e) => e.type === 'approval_request'));
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'r1');
    assert.equal(result.ok, false);
    assert.match(result.output, /^refused: /);
  } finally {
    await s.close();
  }
});

test('a hook that hangs is stopped at its timeout and one that crashes denies; upstream reasons, and the turn goes on', async () => {
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      // Only on bash's own hook point: a short timeout on a hook that must also answer other calls would race the
      // start-up of its node process on a loaded machine.
      a_sleeper: hookPlugin(
        'a_sleeper',
        { pre_bash: { script: 'sleep.js', timeout_ms: 300 } },
        { 'sleep.js': script('setInterval(() => {}, 1000);') },
      ),
      b_crasher: hookPlugin(
        'b_crasher',
        { pre_tool: { script: 'crash.js' } },
        { 'crash.js': script("if (input.tool === 'glob') { process.stderr.write('boom'); process.exit(3); } answer({ allow: true });") },
      ),
    }),
    script: [
      { steps: [{ toolCall: { id: 'l1', name: 'bash', arguments: { command: 'echo hi' } } }] },
      { steps: [{ toolCall: { id: 'g1', name: 'glob', arguments: { pattern: '*' } } }] },
      say('carried on'),
    ],
  });
  try {
    const events = await s.turn('look around');
    const hung = events.find((e) => e.type === 'tool_result' && e.id === 'l1');
    assert.deepEqual([hung.ok, hung.status], [false, 'denied']);
    assert.equal(hung.output, "tool call 'bash' denied by plugin 'a_sleeper' hook 'pre_bash': hook 'pre_bash' timed out after 300ms");
    const crashed = events.find((e) => e.type === 'tool_result' && e.id === 'g1');
    assert.equal(
      crashed.output,
      "tool call 'glob' denied by plugin 'b_crasher' hook 'pre_tool': hook 'pre_tool' exited with exit status: 3: boom",
    );
    assert.equal(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
      'carried on',
    );
    assert.equal(events.at(-1).type, 'done');
  } finally {
    await s.close();
  }
});

test('a pre hook that answers without allow denies; post hooks rewrite the result and add notes; their failures only note', async () => {
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      audit: hookPlugin(
        'audit',
        { post_tool: { script: 'post.js' }, post_read: { script: 'broken.js' } },
        {
          'post.js': script(
            "answer({ allow: false, reason: 'seen', modify: { output: input.result.output.toUpperCase() }, notify: 'audited' });",
          ),
          'broken.js': script("process.stdout.write('not json');"),
        },
      ),
      silent: hookPlugin('silent', { pre_bash: { script: 'silent.js' } }, { 'silent.js': script('answer({ reason: "forgot allow" });') }),
    }),
    files: { 'a.txt': 'hello' },
    script: [
      { steps: [{ toolCall: { id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } } }] },
      bashCall('b1', 'echo hi'),
      say('ok'),
    ],
  });
  try {
    const events = await s.turn('read and run');
    const read = events.find((e) => e.type === 'tool_result' && e.id === 'r1');
    assert.equal(read.ok, true);
    assert.ok(read.output.includes('HELLO'), 'post_tool replaced the output');
    assert.match(read.output, /\n\nPlugin hooks:\n- \[audit\] hook 'post_read' returned invalid JSON: .+\n- \[audit\] seen$/);
    assert.ok(events.some((e) => e.type === 'info' && e.message === '[audit] audited'));
    const bash = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.equal(
      bash.output,
      "tool call 'bash' denied by plugin 'silent' hook 'pre_bash': forgot allow",
      'a denied call runs no post hooks',
    );
  } finally {
    await s.close();
  }
});

test('hooks and plugin tools see a cleared environment: no provider key, no other variable beyond upstream’s list', async () => {
  const s = await startScenario({
    approval: 'never',
    env: { OPENAI_API_KEY: 'sk-should-not-leak-1234567890', SOME_SETTING: 'x' },
    home: homeWith({
      envspy: {
        manifest: {
          name: 'envspy',
          version: '1',
          hooks: { pre_tool: { script: 'hook.js', pass_args: true } },
          tools: [{ name: 'env_tool', kind: 'readonly', script: 'tool.js' }],
        },
        files: {
          'hook.js': script(
            "answer({ allow: true, reason: Object.keys(process.env).sort().join(',') + (raw.includes('SECRETMARKER') ? ' LEAK' : '') });",
          ),
          'tool.js': script("answer({ output: Object.keys(process.env).sort().join(',') });"),
        },
      },
    }),
    script: [{ steps: [{ toolCall: { id: 'e1', name: 'env_tool', arguments: {} } }] }, say('ok')],
  });
  try {
    const events = await s.turn('check env');
    assert.ok(!events.some((e) => e.type === 'approval_request'), 'a readonly plugin tool is not prompted for');
    const result = events.find((e) => e.type === 'tool_result' && e.id === 'e1');
    const [toolEnv, note] = result.output.split('\n\nPlugin hooks:\n- ');
    const allowed = new Set(['PATH', 'HOME', 'TMPDIR', 'USER', 'PYTHONPATH']);
    for (const name of toolEnv.split(',')) assert.ok(allowed.has(name), `tool saw ${name}`);
    const hookEnv = note.replace(/^envspy\/pre_tool: /, '');
    for (const name of hookEnv.split(',')) assert.ok(allowed.has(name), `hook saw ${name}`);
    assert.ok(!JSON.stringify(s.core.events).includes('sk-should-not-leak'));
    assert.ok(!JSON.stringify(s.core.events).includes(TEST_KEY));
  } finally {
    await s.close();
  }
});

test('a plugin tool past its timeout is killed: status timed_out with upstream’s text; disable_tools takes tools off the schema', async () => {
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      slowpoke: {
        manifest: {
          name: 'slowpoke',
          version: '1',
          disable_tools: ['bash'],
          tools: [{ name: 'slow', script: 'slow.js', timeout_ms: 300, kind: 'readonly' }],
        },
        files: { 'slow.js': script('setInterval(() => {}, 1000);') },
      },
    }),
    script: [{ steps: [{ toolCall: { id: 's1', name: 'slow', arguments: {} } }] }, bashCall('b1', 'echo hi'), say('ok')],
  });
  try {
    const events = await s.turn('be slow');
    const slow = events.find((e) => e.type === 'tool_result' && e.id === 's1');
    assert.deepEqual([slow.ok, slow.status, slow.output], [false, 'timed_out', "plugin tool 'slow' handler timed out after 300ms"]);
    const offered = chatRequests(s)[0].body.tools.map((t: any) => t.function?.name ?? t.name);
    assert.ok(offered.includes('slow'));
    assert.ok(!offered.includes('bash'), 'disable_tools removed bash');
    const bash = events.find((e) => e.type === 'tool_result' && e.id === 'b1');
    assert.equal(bash.ok, false);
    assert.match(bash.output, /^unknown tool 'bash'/);
  } finally {
    await s.close();
  }
});

test('a disabled plugin runs no hooks and offers no tools', async () => {
  const marker = tempDir('hook-marker-');
  mkdirSync(marker, { recursive: true });
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      recorder: {
        manifest: {
          name: 'recorder',
          version: '1',
          hooks: { pre_tool: { script: 'rec.js' } },
          tools: [{ name: 'rec_tool', script: 'rec.js' }],
        },
        files: {
          'rec.js': script(
            `require('fs').appendFileSync(${JSON.stringify(join(marker, 'calls'))}, input.hook + '\\n'); answer({ allow: true });`,
          ),
        },
      },
    }),
    script: [{ steps: [{ toolCall: { id: 'l1', name: 'list_dir', arguments: { path: '.' } } }] }, say('ok')],
  });
  try {
    const from = s.core.events.length;
    s.core.send({ type: 'disable_plugin', name: 'recorder' });
    await s.core.waitForType('plugin_disabled', { from });
    const events = await s.turn('list');
    assert.equal(events.find((e) => e.type === 'tool_result' && e.id === 'l1').ok, true);
    assert.ok(!existsSync(join(marker, 'calls')) || readFileSync(join(marker, 'calls'), 'utf8') === '', 'no hook ran');
    const offered = chatRequests(s)[0].body.tools.map((t: any) => t.function?.name ?? t.name);
    assert.ok(!offered.includes('rec_tool'));
  } finally {
    await s.close();
  }
});

test('a subagent’s calls run the hooks too (a child is no way around a guard), but it is offered no plugin tool', async () => {
  const s = await startScenario({
    approval: 'never',
    home: homeWith({
      guard: {
        manifest: {
          name: 'guard',
          version: '1',
          hooks: { pre_bash: { script: 'guard.js' } },
          tools: [{ name: 'main_only', kind: 'readonly', script: 'guard.js' }],
        },
        files: { 'guard.js': script("answer({ allow: false, reason: 'no shell today' });") },
      },
    }),
    script: [
      { steps: [{ toolCall: { id: 'sub1', name: 'subagent', arguments: { agent: 'delegate', task: '[child] run something' } } }] },
      say('parent done'),
    ],
    routes: { '[child]': [bashCall('cb1', 'echo from child'), say('child done')] },
  });
  try {
    const events = await s.turn('delegate it', { timeoutMs: 30_000 });
    const result = events.find((e) => e.type === 'subagent_tool_result' && e.call_id === 'cb1');
    assert.equal(result.ok, false);
    assert.equal(result.result, "tool call 'bash' denied by plugin 'guard' hook 'pre_bash': no shell today");
    const childTools = s.model.requestsFor('[child]')[0].body.tools.map((t: any) => t.function?.name ?? t.name);
    assert.ok(!childTools.includes('main_only'));
  } finally {
    await s.close();
  }
});

test('turn hooks: pre_input denies (error, done, no request) or rewrites the prompt; session_start … session_stop run around the turn', async () => {
  const log = join(tempDir('hook-log-'), 'order');
  const record = (extra: string) => script(`require('fs').appendFileSync(${JSON.stringify(log)}, input.hook + '\\n'); ${extra}`);
  const s = await startScenario({
    home: homeWith({
      gate: {
        manifest: {
          name: 'gate',
          version: '1',
          hooks: {
            session_start: { script: 'advisory.js' },
            pre_input: { script: 'input.js', pass_args: true },
            turn_start: { script: 'advisory.js' },
            turn_end: { script: 'advisory.js' },
            session_stop: { script: 'stop.js' },
          },
        },
        files: {
          'advisory.js': record('answer({ allow: true });'),
          'stop.js': record("answer({ allow: true, notify: 'turn over' });"),
          'input.js': record(
            "answer(input.args.text.includes('forbidden') ? { allow: false, reason: 'no forbidden words' } : { allow: true, modify: { text: '[checked] ' + input.args.text } });",
          ),
        },
      },
    }),
    script: [say('answered')],
  });
  try {
    let from = s.core.events.length;
    const denied = await s.turn('a forbidden thing');
    const error = denied.find((e) => e.type === 'error');
    assert.deepEqual([error.code, error.message], ['input_denied', "input denied by plugin 'gate' pre_input: no forbidden words"]);
    assert.equal(denied.at(-1).type, 'done');
    assert.equal(chatRequests(s).length, 0, 'no model request');
    await s.core.waitFor((e) => e.type === 'info' && e.message === '[gate] turn over', { from });

    from = s.core.events.length;
    await s.turn('hello');
    assert.equal(chatRequests(s)[0].body.messages.at(-1).content, '[checked] hello');
    await s.core.waitFor((e) => e.type === 'info' && e.message === '[gate] turn over', { from });
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
      ...['session_start', 'pre_input', 'turn_end', 'session_stop'],
      ...['session_start', 'pre_input', 'turn_start', 'turn_end', 'session_stop'],
    ]);
  } finally {
    await s.close();
  }
});

test('pre_compact runs before a compaction (with its trigger), session_shutdown once at stdin EOF', async () => {
  const log = join(tempDir('hook-log-'), 'shutdown');
  const s = await startScenario({
    args: ['--session', 's.jsonl'],
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: [{ id: TEST_MODEL, context_window: 20_000 }] },
    ],
    home: homeWith({
      keeper: hookPlugin(
        'keeper',
        { pre_compact: { script: 'compact.js', pass_args: true }, session_shutdown: { script: 'bye.js' } },
        {
          'compact.js': script("answer({ allow: true, notify: 'compacting ' + input.args.trigger });"),
          'bye.js': script(`require('fs').writeFileSync(${JSON.stringify(log)}, input.hook); answer({ allow: true });`),
        },
      ),
    }),
    script: [...['x'.repeat(30_000), 'two', 'three', 'four'].map((text) => say(text)), say('- the summary')],
  });
  let closed = false;
  try {
    for (const q of ['one', 'two', 'three', 'four']) await s.turn(q);
    const from = s.core.events.length;
    s.core.send({ type: 'compact' });
    await s.core.waitForType('compacted', { from });
    const order = s.core.events
      .slice(from)
      .filter((e) => e.type === 'compacting' || (e.type === 'info' && e.message.startsWith('[keeper]')))
      .map((e) => e.message ?? e.type);
    assert.deepEqual(order, ['[keeper] compacting manual', 'compacting']);
    assert.ok(!existsSync(log));
    await s.close();
    closed = true;
    assert.equal(readFileSync(log, 'utf8'), 'session_shutdown');
  } finally {
    if (!closed) await s.close();
  }
});
