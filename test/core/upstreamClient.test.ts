import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer } from '../support/scriptedModelServer';
import { missingUpstreamFields, TOOL_RESULT_STATUSES, UpstreamShapedClient, type UpstreamEvent } from '../support/upstreamShapedClient';

const MODEL = 'upstream-model';

/** After `ready`, upstream's web UI (web/src/server/live-session.ts) asks these on every session. */
const WEB_SESSION_START = ['list_sessions', 'stats', 'list_memory', 'list_plugins', 'get_vision_config', 'list_skills', 'list_checkpoints'];

/** A HOME whose config.json is upstream's format: flat keys, one provider, active. */
function homeWithProvider(baseUrl: string): string {
  const home = mkdtempSync(join(tmpdir(), 'upstream-home-'));
  mkdirSync(join(home, '.config', 'catalyst-code'), { recursive: true });
  const config = {
    activeProvider: 'scripted',
    providers: [{ name: 'scripted', kind: 'openai', base_url: baseUrl, api_key: 'sk-upstream-client-0123456789' }],
  };
  writeFileSync(join(home, '.config', 'catalyst-code', 'config.json'), JSON.stringify(config));
  return home;
}

/** Upstream's run-scoped metadata: inside a run, run_id and a per-run sequence from 1. */
function metadataProblems(events: UpstreamEvent[]): string[] {
  const problems: string[] = [];
  const lastSequence = new Map<string, number>();
  for (const e of events) {
    if (e.protocol_version !== 2) problems.push(`${e.type}: protocol_version ${String(e.protocol_version)}`);
    if (typeof e.session_id !== 'string') problems.push(`${e.type}: no session_id`);
    if (typeof e.run_id !== 'string' || typeof e.sequence !== 'number') continue;
    const previous = lastSequence.get(e.run_id) ?? 0;
    if (e.sequence !== previous + 1) problems.push(`${e.type}: sequence ${e.sequence} after ${previous} in ${e.run_id}`);
    lastSequence.set(e.run_id, e.sequence);
  }
  return problems;
}

test("a client written from upstream's shapes: prompt, approved write, bash, compact and new session, with no error event", async () => {
  const model = await startScriptedModelServer({
    models: [MODEL],
    script: [
      { steps: [{ text: 'hello from the model' }] },
      { steps: [{ toolCall: { id: 'w1', name: 'write_file', arguments: { path: 'notes.txt', content: 'written\n' } } }] },
      { steps: [{ text: 'wrote it' }] },
    ],
  });
  const workspace = mkdtempSync(join(tmpdir(), 'upstream-ws-'));
  const client = UpstreamShapedClient.spawn({
    workspace,
    home: homeWithProvider(model.url),
    sessionFile: join(workspace, 'session.jsonl'),
  });
  try {
    const ready = await client.start();
    const hello = await client.next('protocol_hello', 0);
    assert.deepEqual(ready.providers, ['scripted']);
    assert.equal(hello.protocol_version, 2);
    // A discovery slower than ready's budget lists the models in a later `models` event, as upstream's does.
    const models = (ready.models as { id: string }[]).length > 0 ? ready.models : (await client.next('models', 0)).models;
    const modelId = (models as { id: string }[])[0].id;
    assert.equal(modelId, MODEL);

    for (const type of WEB_SESSION_START) client.send({ type });
    await client.next('checkpoints', 0);

    let from = client.events.length;
    client.send({ type: 'send', prompt: 'say hello', model: modelId });
    await client.next('done', from);
    assert.equal(
      client
        .ofType('delta', from)
        .map((e) => e.text)
        .join(''),
      'hello from the model',
    );

    from = client.events.length;
    const approval = await client.request({ type: 'send', prompt: 'write notes.txt', model: modelId }, 'approval_request');
    const call = client.ofType('tool_call', from)[0];
    assert.equal(approval.tool_call_id, call.id, 'the approval names the tool call the SDK saw');
    assert.deepEqual(JSON.parse(call.args as string), { path: 'notes.txt', content: 'written\n' }, 'tool_call.args is the raw JSON string');
    client.send({ type: 'approve', request_id: approval.request_id, decision: 'yes' });
    await client.next('done', from);
    const result = client.ofType('tool_result', from)[0];
    assert.deepEqual([result.id, result.ok, result.status], ['w1', true, 'success']);
    assert.ok(TOOL_RESULT_STATUSES.includes(result.status as string));
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'written\n');

    const bash = await client.request({ type: 'user_bash', command: 'cat notes.txt' }, 'bash_execution');
    assert.deepEqual([bash.ok, bash.output], [true, 'written\n']);

    from = client.events.length;
    const requests = model.requests.length;
    const compacted = await client.request({ type: 'compact' }, 'compacted');
    assert.equal(client.ofType('compacting', from).length, 1);
    assert.ok((compacted.after_tokens as number) <= (compacted.before_tokens as number), 'compaction never grows the context');
    assert.equal(model.requests.length, requests, 'a short conversation is compacted without a model call');

    from = client.events.length;
    const changed = await client.request({ type: 'new_session' }, 'session_changed');
    await client.next('info', from);
    assert.equal(changed.new, true);
    assert.equal(client.ofType('reset', from).length, 1);

    // Every command above was answered in order; this last reply closes the stream the checks below read.
    await client.request({ type: 'stats' }, 'stats');
    assert.deepEqual(client.badLines, [], 'stdout carries only JSON events');
    assert.deepEqual(client.ofType('error'), [], 'no error event');
    assert.deepEqual(client.events.flatMap(missingUpstreamFields), [], 'every event has the fields upstream reads from it');
    assert.deepEqual(metadataProblems(client.events), []);
  } finally {
    await client.close();
    await model.close();
  }
});

/**
 * Upstream's sink keeps a subagent event's run_id but counts its sequence against the foreground run (event_sink.rs:145):
 * per foreground run, its own and its children's events are numbered 1, 2, 3… in the order printed.
 */
function foregroundSequenceProblems(events: UpstreamEvent[]): string[] {
  // A child's approval_request carries its intercom target as run_id (subagent-<agent>-<id>): a child's event too.
  const childRuns = new Set(events.filter((e) => e.type === 'subagent_start' || /^subagent-/.test(e.run_id ?? '')).map((e) => e.run_id));
  const problems: string[] = [];
  let foreground: string | undefined;
  let last = 0;
  for (const e of events) {
    if (typeof e.run_id !== 'string' || typeof e.sequence !== 'number') continue;
    if (!childRuns.has(e.run_id) && e.run_id !== foreground) {
      foreground = e.run_id;
      last = 0;
    }
    if (e.sequence !== last + 1) problems.push(`${e.type} of ${e.run_id}: sequence ${e.sequence} after ${last} in ${foreground}`);
    last = e.sequence;
  }
  return problems;
}

test("upstream's shapes for a child run: the web UI's prompt, the child's approval matched by call_id, agents and events", async () => {
  const model = await startScriptedModelServer({
    models: [MODEL],
    script: [
      { steps: [{ toolCall: { id: 's1', name: 'subagent', arguments: { agent: 'worker', task: '[web-child] write notes.txt' } } }] },
      { steps: [{ text: 'the worker wrote it' }] },
    ],
    routes: {
      '[web-child]': [
        { steps: [{ toolCall: { id: 'call_1', name: 'write_file', arguments: { path: 'notes.txt', content: 'by the child\n' } } }] },
        { steps: [{ text: 'notes.txt written' }] },
      ],
    },
  });
  const workspace = mkdtempSync(join(tmpdir(), 'upstream-ws-'));
  const client = UpstreamShapedClient.spawn({
    workspace,
    home: homeWithProvider(model.url),
    sessionFile: join(workspace, 'session.jsonl'),
  });
  try {
    await client.start();
    const agents = await client.request({ type: 'list_agents' }, 'agents');
    const worker = (agents.agents as { name: string; source: string }[]).find((a) => a.name === 'worker');
    assert.ok(worker && ['builtin', 'user'].includes(worker.source), 'the builtin worker is listed');

    const from = client.events.length;
    // The web UI's /run wording (web/src/components/chat.tsx:50-62): a prompt, not a command.
    client.send({
      type: 'send',
      prompt: 'Run the subagent tool: agent="worker", task="write notes.txt". Return its result.',
      model: MODEL,
    });
    const parentApproval = await client.next('approval_request', from);
    assert.equal(parentApproval.tool_call_id, 's1');
    client.send({ type: 'approve', request_id: parentApproval.request_id, decision: 'yes' });
    const childAt = client.events.length;
    const childApproval = await client.next('approval_request', childAt);
    const announced = client.ofType('subagent_tool_call', from).filter((e) => e.call_id === childApproval.tool_call_id);
    assert.equal(announced.length, 1, "the child's approval is matched by call_id to the subagent_tool_call that came first");
    assert.deepEqual(announced[0].args, { path: 'notes.txt', content: 'by the child\n' }, 'the proposal is rebuilt from the args object');
    assert.equal(client.ofType('tool_call', from).filter((e) => e.id === childApproval.tool_call_id).length, 0);
    assert.notEqual(childApproval.run_id, announced[0].run_id, "the request's run_id is the child's intercom target, not its run");
    client.send({ type: 'approve', request_id: childApproval.request_id, decision: 'yes' });
    await client.next('done', from);
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'by the child\n');
    const result = client.ofType('tool_result', from).find((e) => e.id === 's1')!;
    assert.deepEqual([result.ok, result.status, result.output], [true, 'success', 'notes.txt written']);

    await client.request({ type: 'stats' }, 'stats');
    const child = client.ofType('subagent_start', from)[0];
    assert.deepEqual(
      client.ofType('subagent_done', from).map((e) => [e.run_id, e.state, e.summary]),
      [[child.run_id, 'completed', 'notes.txt written']],
    );
    assert.deepEqual(client.ofType('error'), [], 'no error event');
    assert.deepEqual(client.events.flatMap(missingUpstreamFields), [], 'every event has the fields upstream reads from it');
    assert.deepEqual(foregroundSequenceProblems(client.events.slice(from)), []);
  } finally {
    await client.close();
    await model.close();
  }
});
